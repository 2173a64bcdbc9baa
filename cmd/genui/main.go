// Command genui wraps any MCP tool server and gives each tool an interactive
// UI (an MCP App). See README.md and docs/architecture.md.
package main

import (
	"fmt"
	"os"

	"github.com/genui-dev/genui/engine/app"
)

func main() {
	app.BeginStart() // the GC's target raised for the start (see there)
	if err := newRootCmd().Execute(); err != nil {
		fmt.Fprintln(os.Stderr, "genui:", err)
		os.Exit(app.ExitCode(err))
	}
}
