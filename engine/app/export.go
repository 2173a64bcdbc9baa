package app

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"golang.org/x/sync/errgroup"

	"github.com/genui-dev/genui/engine"
)

// Export writes every tool's UI as a standalone .html file under out,
// and the view spec it draws (when it has one) as TOOL.spec.json beside
// it, running only the engine (no side server, no port files). Progress
// lines go to w.
func Export(ctx context.Context, opts engine.Options, out string, w io.Writer) error {
	e, err := engine.New(opts)
	if err != nil {
		return err
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	g, gctx := errgroup.WithContext(ctx)
	g.Go(func() error { return e.Run(gctx) })
	g.Go(func() error {
		defer cancel()
		wctx, wcancel := context.WithTimeout(gctx, 30*time.Second)
		defer wcancel()
		if err := e.Registry().WaitReady(wctx); err != nil {
			return err
		}
		if err := os.MkdirAll(out, 0o755); err != nil {
			return err
		}
		for _, t := range e.Registry().List() {
			if t.OwnUI != "" {
				fmt.Fprintf(w, "skip %s: it ships its own UI (%s)\n", t.Name, t.OwnUI)
				continue
			}
			ui, err := e.UI(gctx, t.Name)
			if err != nil {
				return fmt.Errorf("%s: %w", t.Name, err)
			}
			path := filepath.Join(out, SafeFileName(t.Name)+".html")
			if err := os.WriteFile(path, []byte(ui.HTML), 0o644); err != nil {
				return err
			}
			fmt.Fprintf(w, "wrote %s (%s, %d bytes)\n", path, ui.Meta.UIType, len(ui.HTML))
			if len(ui.Meta.Spec) > 0 {
				// The view spec the page draws, readable beside it (the page
				// carries it too, packed with the rest).
				sp := filepath.Join(out, SafeFileName(t.Name)+".spec.json")
				if err := os.WriteFile(sp, append(indentJSON(ui.Meta.Spec), '\n'), 0o644); err != nil {
					return err
				}
				fmt.Fprintf(w, "wrote %s\n", sp)
			}
		}
		return nil
	})
	err = g.Wait()
	if ctx.Err() != nil && err == context.Canceled {
		err = nil
	}
	return err
}

// SafeFileName keeps letters, digits, '-', '_' and '.'; anything else
// becomes '_' (tool names come from the upstream).
func SafeFileName(name string) string {
	b := []byte(name)
	for i, c := range b {
		ok := c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_' || c == '.'
		if !ok {
			b[i] = '_'
		}
	}
	s := string(b)
	if s == "" || s == "." || s == ".." {
		s = "_" + s
	}
	return s
}

// indentJSON is raw indented for people (raw itself if it is not JSON).
func indentJSON(raw []byte) []byte {
	var b bytes.Buffer
	if json.Indent(&b, raw, "", "  ") != nil {
		return raw
	}
	return b.Bytes()
}
