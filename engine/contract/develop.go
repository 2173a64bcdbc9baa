package contract

import (
	"encoding/json"
	"fmt"
	"strings"
	"time"
)

// The develop loop: the call history (every tool call through genui,
// replayable), pinned calls as checks, result diffs, and restarts of a
// watched upstream.

// SourceCheck marks the calls a check run makes (CallRequest.Source,
// HistoryEntry.Source).
const SourceCheck = "check"

// HistoryEntry is one tool call genui recorded: from a host (SourceMCP),
// the TUI, the preview, the HTTP API or a check run.
type HistoryEntry struct {
	// ID numbers entries 1, 2, 3 ... across genui restarts.
	ID   int64     `json:"id"`
	Time time.Time `json:"time"`
	Tool string    `json:"tool"`
	// Source is where the call came from (SourceMCP, SourceTUI, ...);
	// Session is the MCP session of a host's call.
	Source  string `json:"source"`
	Session string `json:"session,omitempty"`
	// Generation is the upstream connection that answered: 1 for the first
	// after genui started, one more for every restart (by --watch or after
	// a crash).
	Generation int `json:"generation"`
	// Arguments are the call's arguments as sent, when recorded whole;
	// ArgumentsSize is their length in bytes. ArgumentsOmitted says why
	// they are missing: OmittedExcluded (history.excludeArguments) or
	// OmittedTruncated (longer than history.maxValueBytes; ArgumentsPrefix
	// holds their start).
	Arguments        json.RawMessage `json:"arguments,omitempty"`
	ArgumentsSize    int             `json:"argumentsSize"`
	ArgumentsOmitted string          `json:"argumentsOmitted,omitempty"`
	ArgumentsPrefix  string          `json:"argumentsPrefix,omitempty"`
	// ArgumentsRedacted (ResultRedacted): values history.redact names were
	// replaced by "[redacted]" (or a truncated start holding one was not
	// kept) before the entry was written.
	ArgumentsRedacted bool `json:"argumentsRedacted,omitempty"`
	// Result is the CallToolResult verbatim, the same way bounded.
	Result         json.RawMessage `json:"result,omitempty"`
	ResultSize     int             `json:"resultSize"`
	ResultOmitted  string          `json:"resultOmitted,omitempty"`
	ResultPrefix   string          `json:"resultPrefix,omitempty"`
	ResultRedacted bool            `json:"resultRedacted,omitempty"`
	IsError        bool            `json:"isError,omitempty"`
	// Error is why the call has no result (the upstream's JSON-RPC error,
	// a lost connection, a timeout).
	Error    string        `json:"error,omitempty"`
	Duration time.Duration `json:"duration"`
	// Summary is the start of the result's text, for lists.
	Summary string `json:"summary,omitempty"`
	// Listed: the entry comes from History, without Result and
	// ResultPrefix (HistoryEntry has them).
	Listed bool `json:"listed,omitempty"`
}

// Why a recorded value is missing (HistoryEntry.ArgumentsOmitted,
// ResultOmitted).
const (
	OmittedExcluded  = "excluded"
	OmittedTruncated = "truncated"
)

// Replayable reports why the entry cannot be called again ("" when it
// can): its arguments were not recorded whole.
func (h HistoryEntry) Replayable() string {
	switch {
	case h.ArgumentsRedacted && h.ArgumentsOmitted == "":
		return "some arguments were recorded as \"[redacted]\" (history.redact), not as they were sent"
	}
	switch h.ArgumentsOmitted {
	case OmittedExcluded:
		return fmt.Sprintf("the arguments of %s calls are not recorded (history.excludeArguments)", h.Tool)
	case OmittedTruncated:
		return fmt.Sprintf("the arguments were %d bytes, longer than history.maxValueBytes, and only their start was recorded", h.ArgumentsSize)
	}
	return ""
}

// HistoryQuery selects recorded calls, newest first.
type HistoryQuery struct {
	// Tool and Source, when set, must match exactly; Errors keeps calls
	// that failed or returned isError.
	Tool   string `json:"tool,omitempty"`
	Source string `json:"source,omitempty"`
	Errors bool   `json:"errors,omitempty"`
	// Before, when set, lists entries with a smaller ID (the next page).
	Before int64 `json:"before,omitempty"`
	// Limit bounds the page (default 100, at most 1000).
	Limit int `json:"limit,omitempty"`
}

// HistoryPage is a page of recorded calls, newest first, listed (no
// results: HistoryEntry has them).
type HistoryPage struct {
	Entries []HistoryEntry `json:"entries"`
	// Matching counts every entry the query matches (this page and the
	// rest).
	Matching int `json:"matching"`
}

// HistoryStats describes the call history (State.History).
type HistoryStats struct {
	Enabled bool `json:"enabled"`
	// Dir is where it is kept ("" = in memory only).
	Dir        string `json:"dir,omitempty"`
	Entries    int    `json:"entries"`
	Bytes      int64  `json:"bytes"`
	MaxEntries int    `json:"maxEntries"`
	MaxBytes   int64  `json:"maxBytes"`
	// LastID is the newest entry's ID (front ends poll it).
	LastID int64 `json:"lastId"`
	// Dropped counts calls not recorded because the writer fell behind.
	Dropped int64 `json:"dropped,omitempty"`
	// Shared says another genui writes this folder's history: this one
	// keeps its calls in memory only.
	Shared string `json:"shared,omitempty"`
}

// HistoryPolicy is what the history keeps of one tool's calls: whether it
// records them, and how many bytes of the arguments and of the result
// (0: none, the tool is excluded). Generation is the upstream connection
// in use now.
type HistoryPolicy struct {
	Record           bool
	Arguments        int
	Result           int
	Generation       int
	ExcludeArguments bool
	ExcludeResult    bool
}

// CallRecord is one finished call handed to the history (the MCP host's
// hook). Arguments and Result hold at most the policy's bytes; the
// history owns them once handed over, until it tells Owner (when set)
// that it is done with the record.
type CallRecord struct {
	Tool, Source, Session string
	Start                 time.Time
	Duration              time.Duration
	Generation            int
	Arguments             json.RawMessage
	ArgumentsSize         int
	Result                json.RawMessage
	ResultSize            int
	// IsError is set by the caller only for a result it cut (the history
	// reads it from a whole one).
	IsError bool
	Error   string
	// Owner, when set, is told once the history has encoded the record
	// (or dropped it): the caller may then reuse the memory Tool,
	// Session, Arguments and Result point into (the MCP host's pooled
	// buffers). The history keeps nothing of them.
	Owner RecordOwner
}

// RecordOwner gets a CallRecord's memory back from the history.
type RecordOwner interface{ Recorded() }

// RerunRequest calls a recorded call again.
type RerunRequest struct {
	ID int64 `json:"id"`
	// Arguments, when set, replace the recorded ones (edited).
	Arguments json.RawMessage `json:"arguments,omitempty"`
	Source    string          `json:"source,omitempty"`
}

// Rerun is the outcome of RerunCall: the recorded call, the new one, and
// how the new result differs from the old.
type Rerun struct {
	Previous HistoryEntry `json:"previous"`
	Entry    HistoryEntry `json:"entry"`
	Diff     ResultDiff   `json:"diff"`
}

// CompareRequest asks how call B's result differs from call A's.
type CompareRequest struct {
	A int64 `json:"a"`
	B int64 `json:"b"`
	// Ignore are paths left out (see Check.Ignore).
	Ignore []string `json:"ignore,omitempty"`
}

// Kinds of a PathChange.
const (
	ChangeAdded   = "added"
	ChangeRemoved = "removed"
	ChangeChanged = "changed"
)

// ResultDiff is how one JSON value (a tool result, a schema) differs from
// another, path by path. Text that holds JSON is compared as JSON (its
// paths continue inside the text); other changed text that spans lines
// carries a line diff.
type ResultDiff struct {
	Equal   bool         `json:"equal"`
	Changes []PathChange `json:"changes,omitempty"`
	// Ignored counts differences under the ignore paths.
	Ignored int `json:"ignored,omitempty"`
}

// PathChange is one difference.
type PathChange struct {
	// Path is a JSON Pointer ("" is the whole value).
	Path string `json:"path"`
	Kind string `json:"kind"`
	// Old and New are the values (compact JSON; a value longer than 2 KiB
	// is cut and shown as a string that says so: the entries hold it whole).
	Old json.RawMessage `json:"old,omitempty"`
	New json.RawMessage `json:"new,omitempty"`
	// Lines is a line diff of changed text: unified hunks ("@@ ...",
	// " kept", "-old", "+new").
	Lines []string `json:"lines,omitempty"`
}

// Text renders the diff for a person: one line per change ("~ path: old
// → new", "+ path: new", "- path: old"), a changed text's line diff
// indented under it.
func (d ResultDiff) Text() []string {
	if d.Equal {
		out := []string{"equal"}
		if d.Ignored > 0 {
			out[0] += fmt.Sprintf(" (%d difference(s) under ignored paths)", d.Ignored)
		}
		return out
	}
	var out []string
	for _, c := range d.Changes {
		out = append(out, c.Text()...)
	}
	if d.Ignored > 0 {
		out = append(out, fmt.Sprintf("(%d more difference(s) under ignored paths)", d.Ignored))
	}
	return out
}

// Text renders one change (see ResultDiff.Text).
func (c PathChange) Text() []string {
	p := c.Path
	if p == "" {
		p = "(the whole value)"
	}
	switch c.Kind {
	case ChangeAdded:
		return []string{"+ " + p + ": " + string(c.New)}
	case ChangeRemoved:
		return []string{"- " + p + ": " + string(c.Old)}
	}
	if len(c.Lines) > 0 {
		out := []string{"~ " + p + ":"}
		for _, l := range c.Lines {
			out = append(out, "    "+l)
		}
		return out
	}
	return []string{"~ " + p + ": " + string(c.Old) + " → " + string(c.New)}
}

// Check is a pinned call: a tool, its arguments and the result it should
// give, stored as a readable file (one per check) in the server's own
// repository; RunChecks (and `genui check`) replays it.
type Check struct {
	Name      string          `json:"name"`
	Tool      string          `json:"tool"`
	Arguments json.RawMessage `json:"arguments"`
	// Ignore are paths whose differences do not count (timestamps, ids):
	// JSON Pointers ("/structuredContent/generatedAt") or the simple
	// syntax ("structuredContent.generatedAt", "content[0].text",
	// "items[*].id"); a path covers everything under it, and "*" matches
	// any key or index.
	Ignore []string `json:"ignore,omitempty"`
	// Result is the expected CallToolResult.
	Result json.RawMessage `json:"result"`
	// File is where the check is stored.
	File string `json:"file,omitempty"`
}

// AddCheckRequest pins a call: a recorded one (HistoryID), or a tool and
// its arguments (called now for the expected result).
type AddCheckRequest struct {
	Name      string          `json:"name"`
	HistoryID int64           `json:"historyId,omitempty"`
	Tool      string          `json:"tool,omitempty"`
	Arguments json.RawMessage `json:"arguments,omitempty"`
	Ignore    []string        `json:"ignore,omitempty"`
	// Replace overwrites a check of the same name.
	Replace bool   `json:"replace,omitempty"`
	Source  string `json:"source,omitempty"`
}

// RunChecksRequest replays checks (all of them when Names is empty).
type RunChecksRequest struct {
	Names []string `json:"names,omitempty"`
	// Update accepts changed results: their files are rewritten (and only
	// theirs).
	Update bool   `json:"update,omitempty"`
	Source string `json:"source,omitempty"`
}

// Check statuses (CheckOutcome.Status).
const (
	CheckEqual   = "equal"
	CheckChanged = "changed"
	CheckFailed  = "failed"
)

// CheckOutcome is one check's replay.
type CheckOutcome struct {
	Name   string `json:"name"`
	Tool   string `json:"tool"`
	Status string `json:"status"`
	// Diff is how the result changed (CheckChanged, and CheckEqual with
	// ignored differences).
	Diff *ResultDiff `json:"diff,omitempty"`
	// Error is why the call failed (CheckFailed).
	Error string `json:"error,omitempty"`
	// Updated: --update rewrote the check's file with the new result.
	Updated  bool          `json:"updated,omitempty"`
	Duration time.Duration `json:"duration"`
	File     string        `json:"file,omitempty"`
}

// CheckReport is a run of checks.
type CheckReport struct {
	Dir      string         `json:"dir"`
	Outcomes []CheckOutcome `json:"outcomes"`
	Equal    int            `json:"equal"`
	Changed  int            `json:"changed"`
	Failed   int            `json:"failed"`
	Updated  int            `json:"updated"`
}

// OK reports whether every check passed: equal, or changed and accepted
// (Update).
func (r CheckReport) OK() bool {
	for _, o := range r.Outcomes {
		if o.Status == CheckFailed || (o.Status == CheckChanged && !o.Updated) {
			return false
		}
	}
	return true
}

// Phases of a watched upstream's restart (UpstreamRestart.Phase).
const (
	RestartChanged     = "changed"        // watched files changed
	RestartBuilding    = "building"       // the build command runs
	RestartBuildFailed = "build-failed"   // it failed: the old upstream keeps serving
	RestartBuilt       = "built"          // the build before the first start succeeded (AtStart)
	RestartRestarting  = "restarting"     // a new upstream starts
	RestartFailed      = "restart-failed" // it did not start: the old one keeps serving
	RestartDone        = "restarted"      // the new upstream serves; tools listed again
	RestartNotWatching = "not-watching"   // the watch could not start (Error says why)
)

// UpstreamRestart is the detail of EventUpstreamRestart: one step of
// restarting a watched upstream (--watch, upstream.watch).
type UpstreamRestart struct {
	Phase string `json:"phase"`
	// AtStart: the build before the upstream's first start (a project
	// with a build step is built before it runs), not a restart.
	AtStart bool `json:"atStart,omitempty"`
	// Files are the changed files that started it (at most 20; MoreFiles
	// counts the rest).
	Files     []string `json:"files,omitempty"`
	MoreFiles int      `json:"moreFiles,omitempty"`
	// Build is the build command; Output the end of what it printed
	// (stdout and stderr, at most 16 KiB; the log has its first lines);
	// ExitCode its status.
	Build    string `json:"build,omitempty"`
	Output   string `json:"output,omitempty"`
	ExitCode int    `json:"exitCode,omitempty"`
	// Error says why a build or restart failed.
	Error string `json:"error,omitempty"`
	// Generation is the upstream connection serving after this step.
	Generation int `json:"generation,omitempty"`
	// Diff and Changes say what the restart changed in the tools (restarted).
	Diff    *ToolDiff    `json:"diff,omitempty"`
	Changes []ToolChange `json:"changes,omitempty"`
	// Regenerated are the tools whose UIs were generated again.
	Regenerated []string `json:"regenerated,omitempty"`
	// BuildDuration is the build's; Duration the time since the change
	// was noticed.
	BuildDuration time.Duration `json:"buildDuration,omitempty"`
	Duration      time.Duration `json:"duration,omitempty"`
}

// Summary is the restart step in one line.
func (r UpstreamRestart) Summary() string {
	files := strings.Join(r.Files, ", ")
	if r.MoreFiles > 0 {
		files += fmt.Sprintf(" and %d more", r.MoreFiles)
	}
	switch r.Phase {
	case RestartChanged:
		return "changed: " + files
	case RestartBuilding:
		if r.AtStart {
			return "building before the first start: " + r.Build
		}
		return "building: " + r.Build
	case RestartBuilt:
		return fmt.Sprintf("built in %s; starting the upstream", r.BuildDuration.Round(time.Millisecond))
	case RestartBuildFailed:
		if r.AtStart {
			return fmt.Sprintf("build failed (%s); starting the upstream from what an earlier build left", r.Error)
		}
		return fmt.Sprintf("build failed (%s); the old upstream keeps serving", r.Error)
	case RestartRestarting:
		return "restarting the upstream"
	case RestartFailed:
		return fmt.Sprintf("restart failed (%s); the old upstream keeps serving", r.Error)
	case RestartNotWatching:
		return "not watching: " + r.Error
	case RestartDone:
		s := fmt.Sprintf("restarted (generation %d) in %s", r.Generation, r.Duration.Round(time.Millisecond))
		if r.Diff != nil {
			if r.Diff.Empty() {
				s += "; tools unchanged"
			} else {
				s += fmt.Sprintf("; tools +%d -%d ~%d", len(r.Diff.Added), len(r.Diff.Removed), len(r.Diff.Changed))
			}
		}
		return s
	}
	return r.Phase
}

// ToolChange is one tool's change in a tools refresh: added, removed, or
// changed (which fields, and how, path by path: "/description",
// "/inputSchema/properties/days/maximum", ...).
type ToolChange struct {
	Tool    string       `json:"tool"`
	Kind    string       `json:"kind"`
	Fields  []string     `json:"fields,omitempty"`
	Changes []PathChange `json:"changes,omitempty"`
}

// Text renders the tool change for a person.
func (c ToolChange) Text() []string {
	switch c.Kind {
	case ChangeAdded:
		return []string{"+ " + c.Tool + " (new tool)"}
	case ChangeRemoved:
		return []string{"- " + c.Tool + " (removed)"}
	}
	out := []string{"~ " + c.Tool + ": " + strings.Join(c.Fields, ", ") + " changed"}
	for _, pc := range c.Changes {
		for _, l := range pc.Text() {
			out = append(out, "    "+l)
		}
	}
	return out
}

// WatchState describes the watch on the upstream's files (State.Watch).
type WatchState struct {
	Enabled  bool          `json:"enabled"`
	Paths    []string      `json:"paths,omitempty"`
	Ignore   []string      `json:"ignore,omitempty"`
	Debounce time.Duration `json:"debounce,omitempty"`
	Build    string        `json:"build,omitempty"`
	// Phase is what runs now: "" (waiting for changes), RestartBuilding
	// or RestartRestarting.
	Phase string `json:"phase,omitempty"`
	// Restarts counts restarts the watch made; Last is its latest final
	// step (restarted, build-failed, restart-failed).
	Restarts int              `json:"restarts"`
	Last     *UpstreamRestart `json:"last,omitempty"`
	// Error says why the watch could not start (a path that does not exist, ...).
	Error string `json:"error,omitempty"`
}
