package app

import (
	"context"
	"fmt"
	"io"
	"net/url"
	"os"
	"path/filepath"
	"time"

	"github.com/genui-dev/genui/engine/httpapi"
	"github.com/pkg/browser"
)

// PreviewOptions describe `genui preview TOOL`.
type PreviewOptions struct {
	// Dir is genui's folder: a live genui there (DIR/mcp-port) is reused.
	Dir  string
	Tool string
	// Args is JSON arguments to call the tool with on load ("" = none).
	Args string
	// NoOpen prints the URL without opening a browser.
	NoOpen bool
	// OwnUpstream is set when the command names an upstream (after --):
	// then a running genui is not reused.
	OwnUpstream bool
	// Out receives the URL and messages (never stdout in genui mcp;
	// default os.Stderr).
	Out io.Writer
	// Open opens a URL (default the system browser).
	Open func(string) error
}

// Preview opens TOOL's browser preview: in the genui running in Dir when
// there is one, else in one built with newApp, served until ctx ends.
func Preview(ctx context.Context, p PreviewOptions, newApp func() (*App, error)) error {
	if p.Out == nil {
		p.Out = os.Stderr
	}
	if p.Open == nil {
		browser.Stdout, browser.Stderr = io.Discard, io.Discard
		p.Open = browser.OpenURL
	}
	q := url.Values{}
	if p.Args != "" {
		q.Set("args", p.Args)
		q.Set("call", "1")
	}
	open := func(base string) error {
		u := base + "/preview/" + url.PathEscape(p.Tool)
		if len(q) > 0 {
			u += "?" + q.Encode()
		}
		fmt.Fprintln(p.Out, "preview:", u)
		if p.NoOpen {
			return nil
		}
		return p.Open(u)
	}
	if port, alive, err := httpapi.ReadPortFile(filepath.Join(p.Dir, "mcp-port")); err == nil && alive && !p.OwnUpstream {
		return open(fmt.Sprintf("http://127.0.0.1:%d", port))
	}
	// No running genui: run one here until interrupted.
	a, err := newApp()
	if err != nil {
		return err
	}
	return a.Run(ctx, nil, func(ctx context.Context, api string) error {
		wctx, cancel := context.WithTimeout(ctx, 30*time.Second)
		defer cancel()
		if _, err := a.Engine.LookupTool(wctx, p.Tool); err != nil {
			return err
		}
		if err := open(api); err != nil {
			fmt.Fprintln(p.Out, "opening the browser failed:", err)
		}
		fmt.Fprintln(p.Out, "serving the preview until Ctrl-C")
		return nil
	})
}
