// Command genui wraps any MCP tool server and gives each tool an interactive
// UI (an MCP App). See README.md and docs/architecture.md.
package main

import (
	"errors"
	"fmt"
	"os"

	"github.com/genui-dev/genui/engine/app"
)

func main() {
	if err := newRootCmd().Execute(); err != nil {
		fmt.Fprintln(os.Stderr, "genui:", err)
		// genui check without a server is a usage error: 2; any other 1.
		var nu app.NoUpstreamError
		if errors.As(err, &nu) {
			os.Exit(nu.ExitCode())
		}
		os.Exit(1)
	}
}
