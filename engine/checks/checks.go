// Package checks keeps pinned calls ("checks") as readable files in the
// server's own repository and replays them. A check is a tool, its
// arguments, the result it should give and the paths whose differences do
// not count; each is one JSON file (<dir>/<name>.json) in a stable form
// (keys sorted, two-space indent, a newline at the end) so a change reads
// well in code review. Run replays checks through any caller (the engine's
// upstream, or one `genui check` starts itself) and reports equal, changed
// (with the structural diff) or failed; with update it rewrites the files
// of changed checks, and only theirs.
package checks

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/google/renameio/v2/maybe"

	"github.com/genui-dev/genui/engine/contract"
	"github.com/genui-dev/genui/engine/resultdiff"
	"github.com/genui-dev/genui/engine/safefile"
)

// DefaultDir is where checks live, relative to the project folder.
const DefaultDir = "genui-checks"

// DefaultTimeout bounds one check's call.
const DefaultTimeout = time.Minute

// maxFile bounds one check file.
const maxFile = 16 << 20

// nameRE is a check name's shape, compiled on first use: its bounded
// repetition makes a 100 KB program, which every genui start paid at init.
var nameRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$`) })

// ValidName reports why name cannot name a check ("" letters, digits, '.',
// '_', '-', at most 100, starting with a letter or digit).
func ValidName(name string) error {
	if !nameRE().MatchString(name) || strings.HasSuffix(name, ".json") {
		return fmt.Errorf("check name %q: use letters, digits, '.', '_' and '-' (at most 100, starting with a letter or digit, no .json)", name)
	}
	return nil
}

// Store is a folder of checks.
type Store struct{ dir string }

// NewStore is the checks under dir (created when the first is written).
func NewStore(dir string) *Store {
	if dir == "" {
		dir = DefaultDir
	}
	return &Store{dir: dir}
}

// Dir is the folder.
func (s *Store) Dir() string { return s.dir }

func (s *Store) path(name string) string { return filepath.Join(s.dir, name+".json") }

// List reads every check, sorted by name. A file it cannot read is
// reported in problems (its name, why) and left out.
func (s *Store) List() (list []contract.Check, problems map[string]error, err error) {
	names, err := filepath.Glob(filepath.Join(s.dir, "*.json"))
	if err != nil {
		return nil, nil, err
	}
	sort.Strings(names)
	problems = map[string]error{}
	for _, p := range names {
		name := strings.TrimSuffix(filepath.Base(p), ".json")
		c, err := s.Get(name)
		if err != nil {
			problems[name] = err
			continue
		}
		list = append(list, c)
	}
	return list, problems, nil
}

// Get reads one check.
func (s *Store) Get(name string) (contract.Check, error) {
	if err := ValidName(name); err != nil {
		return contract.Check{}, err
	}
	p := s.path(name)
	data, err := safefile.Read(p, maxFile)
	if err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return contract.Check{}, contract.Errorf(contract.CodeNotFound, "no check %q (no %s)", name, p)
		}
		return contract.Check{}, fmt.Errorf("%s: %w", p, err)
	}
	var c contract.Check
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&c); err != nil {
		return contract.Check{}, fmt.Errorf("%s: %w", p, err)
	}
	if err := validate(c); err != nil {
		return contract.Check{}, fmt.Errorf("%s: %w", p, err)
	}
	if c.Name != name {
		return contract.Check{}, fmt.Errorf("%s: its name is %q; a check's file is named after it (%s.json)", p, c.Name, c.Name)
	}
	c.File = p
	return c, nil
}

// validate checks what a check file must hold.
func validate(c contract.Check) error {
	if err := ValidName(c.Name); err != nil {
		return err
	}
	if c.Tool == "" {
		return errors.New("no tool")
	}
	var args map[string]json.RawMessage
	if err := json.Unmarshal(c.Arguments, &args); err != nil || args == nil {
		return errors.New("arguments must be a JSON object")
	}
	if len(bytes.TrimSpace(c.Result)) == 0 || !json.Valid(c.Result) {
		return errors.New("result must be the expected CallToolResult (a JSON value)")
	}
	for _, p := range c.Ignore {
		if _, err := resultdiff.ParsePath(p); err != nil {
			return fmt.Errorf("ignore: %w", err)
		}
	}
	return nil
}

// Format is a check's file: keys in a fixed order (name, tool, arguments,
// ignore, result), objects with sorted keys, numbers as written, two-space
// indent, a final newline.
func Format(c contract.Check) ([]byte, error) {
	args, err := canonical(c.Arguments)
	if err != nil {
		return nil, fmt.Errorf("arguments: %w", err)
	}
	res, err := canonical(c.Result)
	if err != nil {
		return nil, fmt.Errorf("result: %w", err)
	}
	doc := struct {
		Name      string          `json:"name"`
		Tool      string          `json:"tool"`
		Arguments json.RawMessage `json:"arguments"`
		Ignore    []string        `json:"ignore,omitempty"`
		Result    json.RawMessage `json:"result"`
	}{c.Name, c.Tool, args, c.Ignore, res}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(doc); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// canonical re-encodes raw with sorted keys and its numbers as written.
func canonical(raw json.RawMessage) (json.RawMessage, error) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimRight(buf.Bytes(), "\n"), nil
}

// Write stores c as its file. An existing check is replaced only with
// replace; written reports whether the file changed (false: it already
// held exactly this).
func (s *Store) Write(c contract.Check, replace bool) (written bool, err error) {
	if err := validate(c); err != nil {
		return false, contract.Errorf(contract.CodeInvalidArgument, "check %s: %v", c.Name, err)
	}
	data, err := Format(c)
	if err != nil {
		return false, contract.Errorf(contract.CodeInvalidArgument, "check %s: %v", c.Name, err)
	}
	p := s.path(c.Name)
	old, rerr := safefile.Read(p, maxFile)
	switch {
	case rerr == nil && bytes.Equal(old, data):
		return false, nil
	case rerr == nil && !replace:
		return false, contract.Errorf(contract.CodeInvalidArgument, "a check named %q exists (%s); replace it explicitly", c.Name, p)
	}
	if err := os.MkdirAll(s.dir, 0o755); err != nil {
		return false, err
	}
	if err := maybe.WriteFile(p, data, 0o644); err != nil {
		return false, err
	}
	return true, nil
}

// Caller calls a tool and returns its CallToolResult verbatim (an error
// for a JSON-RPC error or a failed call).
type Caller func(ctx context.Context, tool string, args json.RawMessage) (json.RawMessage, error)

// RunOptions configure Run.
type RunOptions struct {
	// Names selects checks (all when empty); an unknown name fails.
	Names []string
	// Update rewrites the files of changed checks with the new result.
	Update bool
	// Timeout bounds each call (default DefaultTimeout).
	Timeout time.Duration
}

// Run replays the checks through call, one after the other, in name order.
func (s *Store) Run(ctx context.Context, call Caller, o RunOptions) (contract.CheckReport, error) {
	if o.Timeout <= 0 {
		o.Timeout = DefaultTimeout
	}
	rep := contract.CheckReport{Dir: s.dir, Outcomes: []contract.CheckOutcome{}}
	var list []contract.Check
	problems := map[string]error{}
	if len(o.Names) == 0 {
		var err error
		if list, problems, err = s.List(); err != nil {
			return rep, err
		}
	} else {
		for _, n := range o.Names {
			c, err := s.Get(n)
			if err != nil {
				var ce *contract.Error
				if errors.As(err, &ce) && ce.Code == contract.CodeNotFound {
					return rep, err
				}
				problems[n] = err
				continue
			}
			list = append(list, c)
		}
	}
	for name, err := range problems {
		rep.Outcomes = append(rep.Outcomes, contract.CheckOutcome{Name: name, Status: contract.CheckFailed,
			Error: "cannot read the check: " + err.Error(), File: s.path(name)})
	}
	for _, c := range list {
		if ctx.Err() != nil {
			return rep, ctx.Err()
		}
		rep.Outcomes = append(rep.Outcomes, s.runOne(ctx, call, c, o))
	}
	sort.Slice(rep.Outcomes, func(i, j int) bool { return rep.Outcomes[i].Name < rep.Outcomes[j].Name })
	for _, out := range rep.Outcomes {
		switch out.Status {
		case contract.CheckEqual:
			rep.Equal++
		case contract.CheckChanged:
			rep.Changed++
		default:
			rep.Failed++
		}
		if out.Updated {
			rep.Updated++
		}
	}
	return rep, nil
}

func (s *Store) runOne(ctx context.Context, call Caller, c contract.Check, o RunOptions) contract.CheckOutcome {
	out := contract.CheckOutcome{Name: c.Name, Tool: c.Tool, File: c.File}
	cctx, cancel := context.WithTimeout(ctx, o.Timeout)
	defer cancel()
	start := time.Now()
	got, err := call(cctx, c.Tool, c.Arguments)
	out.Duration = time.Since(start)
	if err != nil {
		out.Status, out.Error = contract.CheckFailed, err.Error()
		if cctx.Err() != nil && ctx.Err() == nil {
			out.Error = fmt.Sprintf("no answer within %s: %v", o.Timeout, err)
		}
		return out
	}
	d, err := resultdiff.Compare(c.Result, got, c.Ignore)
	if err != nil {
		out.Status, out.Error = contract.CheckFailed, err.Error()
		return out
	}
	if d.Equal {
		out.Status = contract.CheckEqual
		if d.Ignored > 0 {
			out.Diff = &d
		}
		return out
	}
	out.Status, out.Diff = contract.CheckChanged, &d
	if o.Update {
		c.Result = got
		if _, err := s.Write(c, true); err != nil {
			out.Error = "updating the check failed: " + err.Error()
			return out
		}
		out.Updated = true
	}
	return out
}

// Report renders a check run for a terminal: one line per check, the diff
// of each changed one under it, and the counts.
func Report(r contract.CheckReport) string {
	var b strings.Builder
	if len(r.Outcomes) == 0 {
		fmt.Fprintf(&b, "no checks in %s (pin one with `genui check add NAME TOOL [ARGUMENTS]` or p in the TUI's History pane)\n", r.Dir)
		return b.String()
	}
	nameW, toolW := 4, 4
	for _, o := range r.Outcomes {
		nameW, toolW = max(nameW, len(o.Name)), max(toolW, len(o.Tool))
	}
	fmt.Fprintf(&b, "%d check(s) in %s\n", len(r.Outcomes), r.Dir)
	for _, o := range r.Outcomes {
		mark, what := "ok ", "equal"
		switch o.Status {
		case contract.CheckChanged:
			mark, what = "CHG", "changed"
			if o.Updated {
				what = "changed, updated"
			}
		case contract.CheckFailed:
			mark, what = "ERR", "failed: "+o.Error
		}
		if o.Status == contract.CheckEqual && o.Diff != nil && o.Diff.Ignored > 0 {
			what += fmt.Sprintf(" (%d ignored difference(s))", o.Diff.Ignored)
		}
		fmt.Fprintf(&b, "  %s %-*s  %-*s  %s (%s)\n", mark, nameW, o.Name, toolW, o.Tool, what, roundDuration(o.Duration))
		if o.Status == contract.CheckChanged && o.Diff != nil {
			for _, l := range o.Diff.Text() {
				fmt.Fprintf(&b, "        %s\n", l)
			}
		}
		if o.Status == contract.CheckChanged && o.Error != "" {
			fmt.Fprintf(&b, "        %s\n", o.Error)
		}
	}
	fmt.Fprintf(&b, "%d equal, %d changed, %d failed", r.Equal, r.Changed, r.Failed)
	if r.Updated > 0 {
		fmt.Fprintf(&b, ", %d updated", r.Updated)
	}
	b.WriteString("\n")
	return b.String()
}

// roundDuration is d as a person reads it: milliseconds, or microseconds
// below one.
func roundDuration(d time.Duration) time.Duration {
	if d < time.Millisecond {
		return d.Round(time.Microsecond)
	}
	return d.Round(time.Millisecond)
}
