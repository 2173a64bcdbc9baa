package tui

import (
	"context"
	"os"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/genui-dev/genui/engine/contract"
)

// What the workbench is given: where its engine runs and the options
// `genui tui` (tui/launch) and the tests set.

// Mode says where the engine the TUI shows runs.
type Mode int

const (
	// InProcess: the engine runs in this process (with its side server and
	// port files, so browsers and agents can join).
	InProcess Mode = iota
	// Attached: the engine is a running genui (genui mcp or serve) reached
	// through its HTTP side server.
	Attached
)

func (m Mode) String() string {
	if m == Attached {
		return "attached"
	}
	return "in-process"
}

// Options configure the workbench.
type Options struct {
	// API is the engine: *contract.Engine in-process, an apiclient.Client
	// attached.
	API  contract.API
	Mode Mode
	// Base is the side server's URL: the attached genui's, or the one this
	// process runs. Dir is genui's folder (DIR): an in-process TUI polls
	// DIR/mcp-port for a genui started later, an attached one follows a
	// restarted server there.
	Base, Dir string
	// Upstream describes the wrapped server for the header ("" = take it
	// from the engine's state).
	Upstream string
	// Dial returns the engine of the genui at base (an HTTP client); Locate
	// reads what DIR's port and lock files say (conn.go). Both are
	// required to attach later (key a) and to follow a restarted server.
	Dial   func(base string) contract.API
	Locate func(dir string) (DirGenui, error)
	// Release stops the in-process engine once the TUI has attached to
	// another genui (key a). It runs in a command and may block, bounded.
	Release func()
	// OpenURL opens the browser (default github.com/pkg/browser; it only
	// ever gets http and https URLs: opener.go); Copy puts
	// text on the clipboard (default OSC 52 through the terminal, and
	// tmux's paste buffer inside tmux). Tests inject both.
	OpenURL func(url string) error
	Copy    func(text string) tea.Cmd
	// ExportDir is where `e` writes UIs (default DIR/export).
	ExportDir string
	// Now is the clock (tests fix it).
	Now func() time.Time
	// Static stops animation: spinners show one frame (golden screens).
	Static bool
	// NoColor draws without colors (NO_COLOR).
	NoColor bool
	// Dark forces a dark (true) or light (false) palette; nil asks the
	// terminal for its background color.
	Dark *bool
	// PollInterval is how often the state is refreshed and DIR/mcp-port
	// checked (default 1 s).
	PollInterval time.Duration
	// Context bounds every engine call and subscription (default
	// context.Background()).
	Context context.Context
}

// NoColorFromEnv reports whether NO_COLOR asks for no colors.
func NoColorFromEnv() bool { return os.Getenv("NO_COLOR") != "" }
