package host_test

import (
	"bufio"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/genui-dev/genui/engine/demo"
	"github.com/genui-dev/genui/internal/manytools"
	"github.com/genui-dev/genui/internal/testenv"
)

// demoChildEnv makes this test binary the demo server on stdin/stdout (a
// real child process for the benchmarks' stdio upstream).
const demoChildEnv = "GENUI_HOST_TEST_DEMO_CHILD"

// pausingChildEnv makes this test binary a stdio server that answers
// tools/list in two parts (pausingChild).
const pausingChildEnv = "GENUI_HOST_TEST_PAUSING_CHILD"

func TestMain(m *testing.M) {
	if os.Getenv(demoChildEnv) == "1" {
		_ = demo.ServeStdio(context.Background(), os.Stdin, os.Stdout)
		os.Exit(0)
	}
	if dir := os.Getenv(pausingChildEnv); dir != "" {
		pausingChild(dir)
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// Tools of the pausing child: pausingTools in all, the first pausingFirst
// of them written before it pauses (a line longer than the link's 64 KiB
// buffer, so genui streams it).
const (
	pausingTools = 1000
	pausingFirst = 400
)

// pausingChild is a stdio MCP server (manytools' tools) that writes the
// first part of its tools/list answer, then waits (at most a minute) for
// the file dir/go, whose content says how it goes on: "rest" writes the
// rest of the answer, "die" exits, "invalid" ends the line with bytes
// that are not JSON.
func pausingChild(dir string) {
	up := &manytools.Server{N: pausingTools}
	w := bufio.NewWriterSize(os.Stdout, 1<<16)
	sc := bufio.NewScanner(os.Stdin)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		var m struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
		}
		if json.Unmarshal(sc.Bytes(), &m) != nil || len(m.ID) == 0 {
			continue
		}
		switch m.Method {
		case "initialize":
			_, _ = w.WriteString(`{"jsonrpc":"2.0","id":` + string(m.ID) + `,"result":{"protocolVersion":"2025-11-25","capabilities":{"tools":{}},"serverInfo":{"name":"pausing","version":"1"}}}` + "\n")
		case "tools/list":
			_, _ = w.WriteString(`{"jsonrpc":"2.0","id":` + string(m.ID) + `,"result":{"tools":[`)
			for i := range pausingFirst {
				if i > 0 {
					_ = w.WriteByte(',')
				}
				_, _ = w.Write(up.Tool(i))
			}
			_ = w.Flush()
			var how []byte
			testenv.Until(time.Minute, func() bool { how, _ = os.ReadFile(filepath.Join(dir, "go")); return len(how) > 0 })
			switch string(how) {
			case "rest":
				for i := pausingFirst; i < pausingTools; i++ {
					_ = w.WriteByte(',')
					_, _ = w.Write(up.Tool(i))
				}
				_, _ = w.WriteString("]}}\n")
			case "invalid":
				_, _ = w.WriteString(`,{"name":` + strconv.Quote("broken") + `,]}}` + "\n")
			default:
				os.Exit(3)
			}
		default:
			_, _ = w.WriteString(`{"jsonrpc":"2.0","id":` + string(m.ID) + `,"error":{"code":-32601,"message":"no ` + m.Method + `"}}` + "\n")
		}
		_ = w.Flush()
	}
}
