package app

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"path/filepath"

	"github.com/genui-dev/genui/engine/checks"
	"github.com/genui-dev/genui/engine/history"
	"github.com/genui-dev/genui/engine/lint"
	"github.com/genui-dev/genui/engine/upstream"
)

// `genui lint` (and `genui check --lint`): the server linter run before
// publishing. It starts the upstream itself like genui check, lints the
// tools it lists, and checks the results recorded in DIR/history and the
// pinned checks against their tools' output schemas (engine/lint).

// LintOptions configure Lint.
type LintOptions struct {
	// JSON prints the report as JSON (contract.LintReport).
	JSON bool
	Out  io.Writer
}

// ErrLintFailed is Lint's error when the linter found errors: genui exits 1.
var ErrLintFailed = errors.New("the linter found errors")

// maxToolPages bounds the tools/list pages the linter follows.
const maxToolPages = 1000

// Lint is `genui lint`.
func (s *Setup) Lint(ctx context.Context, o LintOptions) error {
	c, stop, err := s.startUpstream(ctx, false)
	if err != nil {
		return err
	}
	defer stop()
	return s.lintWith(ctx, c, o)
}

func (s *Setup) lintWith(ctx context.Context, c *upstream.Client, o LintOptions) error {
	tools, err := listTools(ctx, c)
	if err != nil {
		return err
	}
	pinned, _, err := checks.NewStore(s.Config.Checks.Directory).List()
	if err != nil {
		return err
	}
	var hist lint.HistoryReader
	if s.Config.History.Enabled {
		st, err := history.Open(history.Options{Dir: filepath.Join(s.Config.Dir, "history"), MaxEntries: s.Config.History.MaxEntries,
			MaxBytes: s.Config.History.MaxBytes, MaxValueBytes: s.Config.History.MaxValueBytes})
		if err != nil {
			return err
		}
		defer st.Close()
		hist = st
	}
	rep := lint.Lint(tools, lint.Recorded(hist, pinned))
	if o.JSON {
		enc := json.NewEncoder(o.Out)
		enc.SetIndent("", "  ")
		enc.SetEscapeHTML(false)
		if err := enc.Encode(rep); err != nil {
			return err
		}
	} else {
		fmt.Fprint(o.Out, lint.Format(rep))
	}
	if !rep.OK() {
		return fmt.Errorf("%w: %d errors", ErrLintFailed, rep.Errors)
	}
	return nil
}

// listTools reads every page of the upstream's tools/list, verbatim.
func listTools(ctx context.Context, c *upstream.Client) ([]json.RawMessage, error) {
	var all []json.RawMessage
	cursor := ""
	for range maxToolPages {
		params := json.RawMessage(`{}`)
		if cursor != "" {
			params, _ = json.Marshal(map[string]string{"cursor": cursor})
		}
		res, err := c.Request(ctx, "tools/list", params)
		if err != nil {
			return nil, fmt.Errorf("tools/list: %v", err)
		}
		var page struct {
			Tools      []json.RawMessage `json:"tools"`
			NextCursor string            `json:"nextCursor"`
		}
		if err := json.Unmarshal(res, &page); err != nil {
			return nil, fmt.Errorf("tools/list: malformed result: %v", err)
		}
		all = append(all, page.Tools...)
		if page.NextCursor == "" {
			return all, nil
		}
		cursor = page.NextCursor
	}
	return nil, fmt.Errorf("tools/list: more than %d pages", maxToolPages)
}
