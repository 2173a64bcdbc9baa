package host_test

import (
	"context"
	"os"
	"testing"

	"github.com/genui-dev/genui/engine/demo"
)

// demoChildEnv makes this test binary the demo server on stdin/stdout (a
// real child process for the benchmarks' stdio upstream).
const demoChildEnv = "GENUI_HOST_TEST_DEMO_CHILD"

func TestMain(m *testing.M) {
	if os.Getenv(demoChildEnv) == "1" {
		_ = demo.ServeStdio(context.Background(), os.Stdin, os.Stdout)
		os.Exit(0)
	}
	os.Exit(m.Run())
}
