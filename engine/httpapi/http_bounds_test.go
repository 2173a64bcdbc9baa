package httpapi

import (
	"bufio"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"
)

// TestSlowBodyIsCutOff: a client that sends headers and then trickles
// (or stalls) its body does not hold a connection forever, on either
// origin; long polls and event streams, which have no body, are not cut.
func TestSlowBodyIsCutOff(t *testing.T) {
	old := bodyReadTimeout
	bodyReadTimeout = 300 * time.Millisecond
	t.Cleanup(func() { bodyReadTimeout = old })
	s, stop := serveInDir(t, t.TempDir())
	defer stop()
	for _, base := range []string{s.APIBase(), s.UIBase()} {
		for _, path := range []string{"/api/tool/get_current_weather", "/mcp"} {
			conn, err := net.Dial("tcp", strings.TrimPrefix(base, "http://"))
			if err != nil {
				t.Fatal(err)
			}
			_, _ = io.WriteString(conn, "POST "+path+" HTTP/1.1\r\nHost: "+strings.TrimPrefix(base, "http://")+
				"\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{")
			_ = conn.SetReadDeadline(time.Now().Add(5 * time.Second))
			start := time.Now()
			_, err = io.ReadAll(bufio.NewReader(conn)) // a response, then the close; or just the close
			conn.Close()
			if ne, ok := err.(net.Error); ok && ne.Timeout() {
				t.Errorf("%s%s: a stalled body still holds the connection after %s", base, path, time.Since(start).Round(time.Millisecond))
			}
		}
	}
	// A long poll outlives the body timeout.
	start := time.Now()
	resp, err := http.Get(s.APIBase() + "/wait?timeout=1")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusNoContent || time.Since(start) < 900*time.Millisecond {
		t.Fatalf("/wait?timeout=1: %d after %s, want 204 after 1 s", resp.StatusCode, time.Since(start))
	}
}
