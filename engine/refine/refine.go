// Package refine keeps the ordered refinement history (user feedback) of
// each tool's UI, persisted as one JSON file. The history's Hash is part of
// the UI cache key, so adding feedback makes the UI regenerate.
//
// Several genui processes may share one file (two Claude Code sessions in
// one project): every change is saved as read-merge-write under a lock file
// (path + ".lock", github.com/gofrs/flock), applying the change to what is
// on disk rather than writing this process's memory over it, and readers
// pick up the other processes' changes when the file changes.
package refine

import (
	"cmp"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/gofrs/flock"
	"github.com/google/renameio/v2/maybe"

	"github.com/genui-dev/genui/engine/contract"
	"github.com/genui-dev/genui/engine/safefile"
)

// FormatVersion is the version of refinements.json.
const FormatVersion = 1

// MaxFeedbackBytes bounds one piece of feedback.
const MaxFeedbackBytes = 16 << 10

// file is the JSON layout of refinements.json.
type file struct {
	Version int                              `json:"version"`
	Tools   map[string][]contract.Refinement `json:"tools"`
}

// Store is the refinement history of every tool. It is safe for concurrent
// use, also by several processes on one file. Every change is merged into
// the file atomically before the method returns; if that fails the change
// still applies in memory, the error is returned, and the next save
// retries it.
type Store struct {
	path string
	log  *slog.Logger

	mu    sync.Mutex
	tools map[string][]contract.Refinement
	// pending are changes not yet in the file, oldest first.
	pending []change
	// seen is the file as last read or written; checked is when a reader
	// last compared it with the file (at most every reloadEvery).
	seen    fs.FileInfo
	checked time.Time
}

// Bounds of the file lock and of noticing other processes' changes.
const (
	lockWait    = 10 * time.Second
	lockRetry   = 5 * time.Millisecond
	reloadEvery = 250 * time.Millisecond
)

// change is one modification, applied to memory at once and to the file's
// content (whatever other processes put there) when saving.
type change struct {
	add   *contract.Refinement // append to tool's history (unless already there)
	drop  *contract.Refinement // remove from tool's history (the first one equal to it)
	tool  string
	clear []string // drop these tools' histories
}

// apply makes the change to tools.
func (c change) apply(tools map[string][]contract.Refinement) {
	if c.add != nil {
		for _, r := range tools[c.tool] {
			if r.Feedback == c.add.Feedback && r.Source == c.add.Source && r.Time.Equal(c.add.Time) {
				return // already saved (a save that reported an error after its rename)
			}
		}
		tools[c.tool] = append(tools[c.tool], *c.add)
	}
	if c.drop != nil {
		hist := tools[c.tool]
		for i, r := range hist {
			if r.Feedback == c.drop.Feedback && r.Source == c.drop.Source && r.Time.Equal(c.drop.Time) {
				hist = slices.Delete(slices.Clone(hist), i, i+1)
				break
			}
		}
		if len(hist) == 0 {
			delete(tools, c.tool)
		} else {
			tools[c.tool] = hist
		}
	}
	for _, t := range c.clear {
		delete(tools, t)
	}
}

// Open loads the store at path (normally DIR/refinements.json); path ""
// keeps history in memory only. A missing file starts empty. A corrupt file
// (or one of another version) is renamed to path.corrupt-<unix>, logged as a
// warning, and the store starts empty. Other read errors are returned.
func Open(path string, logger *slog.Logger) (*Store, error) {
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	s := &Store{path: path, log: logger.With("component", "refine"), tools: map[string][]contract.Refinement{}}
	if path == "" {
		return s, nil
	}
	s.removeStaleTemps()
	data, err := safefile.Read(path, MaxFileBytes)
	if errors.Is(err, fs.ErrNotExist) {
		return s, nil
	}
	var bad *safefile.BadFileError
	if errors.As(err, &bad) {
		return s, s.quarantine(err)
	}
	if err != nil {
		return nil, fmt.Errorf("refine: read %s: %w", path, err)
	}
	tools, perr := parse(data)
	if perr != nil {
		return s, s.quarantine(perr)
	}
	s.tools = tools
	s.seen, _ = os.Stat(path)
	s.checked = time.Now()
	return s, nil
}

// MaxFileBytes bounds refinements.json; a bigger file is not one genui
// wrote (a thousand tools with a hundred 16 KiB refinements each fit).
const MaxFileBytes = 64 << 20

// staleTempAge is how old a temp file must be before Open deletes it, so a
// second genui process opening the same DIR never removes a write in flight.
const staleTempAge = time.Minute

// removeStaleTemps deletes temp files left by writes that died before the rename.
func (s *Store) removeStaleTemps() {
	temps, _ := filepath.Glob(filepath.Join(filepath.Dir(s.path), "."+filepath.Base(s.path)+"*"))
	for _, t := range temps {
		if fi, err := os.Stat(t); err == nil && time.Since(fi.ModTime()) > staleTempAge {
			s.log.Info("removing temp file left by an interrupted write", "file", t)
			os.Remove(t)
		}
	}
}

// parse decodes and checks refinements.json.
func parse(data []byte) (map[string][]contract.Refinement, error) {
	var f file
	if err := json.Unmarshal(data, &f); err != nil {
		return nil, fmt.Errorf("corrupt: %w", err)
	}
	if f.Version != FormatVersion {
		return nil, fmt.Errorf("format version %d, want %d", f.Version, FormatVersion)
	}
	tools := make(map[string][]contract.Refinement, len(f.Tools))
	for tool, hist := range f.Tools {
		if tool != "" && len(hist) > 0 {
			tools[tool] = hist
		}
	}
	return tools, nil
}

// quarantine moves an unreadable file aside so nothing is lost and the next
// write does not overwrite it. It fails only if the file cannot be moved.
func (s *Store) quarantine(cause error) error {
	dst := fmt.Sprintf("%s.corrupt-%d", s.path, time.Now().Unix())
	for i := 1; ; i++ {
		if _, err := os.Lstat(dst); errors.Is(err, fs.ErrNotExist) {
			break
		}
		dst = fmt.Sprintf("%s.corrupt-%d-%d", s.path, time.Now().Unix(), i)
	}
	if err := os.Rename(s.path, dst); err != nil {
		return fmt.Errorf("refine: %s is unreadable (%v) and could not be moved aside: %w", s.path, cause, err)
	}
	s.log.Warn("refinements file unreadable; starting empty", "file", s.path, "movedTo", dst, "err", cause)
	return nil
}

// Add appends feedback to tool's history and returns the new history.
func (s *Store) Add(tool, feedback, source string) ([]contract.Refinement, error) {
	feedback = strings.TrimSpace(feedback)
	switch {
	case tool == "":
		return nil, errors.New("refine: tool name is empty")
	case feedback == "":
		return nil, errors.New("refine: feedback is empty")
	case len(feedback) > MaxFeedbackBytes:
		return nil, fmt.Errorf("refine: feedback is %d bytes, limit %d", len(feedback), MaxFeedbackBytes)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	err := s.commitLocked(change{add: &contract.Refinement{Feedback: feedback, Time: time.Now().UTC().Round(0), Source: source}, tool: tool})
	return slices.Clone(s.tools[tool]), err
}

// Drop removes the refinement at index (from 0; -1 is the last) of tool's
// history and returns it with the history left. When feedback is not ""
// it must be that refinement's feedback: another process may have changed
// the history since the caller read it, and then nothing is dropped.
func (s *Store) Drop(tool string, index int, feedback string) (dropped contract.Refinement, left []contract.Refinement, err error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.reloadLocked()
	hist := s.tools[tool]
	if index == -1 {
		index = len(hist) - 1
	}
	if index < 0 || index >= len(hist) {
		return contract.Refinement{}, slices.Clone(hist), fmt.Errorf("%s has %d refinement(s): there is no refinement %d", tool, len(hist), index)
	}
	dropped = hist[index]
	if feedback != "" && strings.TrimSpace(feedback) != dropped.Feedback {
		return contract.Refinement{}, slices.Clone(hist), fmt.Errorf("refinement %d of %s is %q now, not %q (the history changed)", index, tool, dropped.Feedback, feedback)
	}
	err = s.commitLocked(change{drop: &dropped, tool: tool})
	return dropped, slices.Clone(s.tools[tool]), err
}

// History returns tool's refinements, oldest first (nil if none).
func (s *Store) History(tool string) []contract.Refinement {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.reloadLocked()
	return slices.Clone(s.tools[tool])
}

// Clear drops tool's history (in the file too, whoever added it).
func (s *Store) Clear(tool string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.reloadLocked()
	if _, ok := s.tools[tool]; !ok {
		return nil
	}
	return s.commitLocked(change{clear: []string{tool}})
}

// Retain drops the history of every tool not in tools (tools that no longer
// exist upstream) and returns the dropped names, sorted. Only histories
// this store knows are dropped: another process's refinements of tools it
// added since stay.
func (s *Store) Retain(tools []string) (removed []string, err error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.reloadLocked()
	for name := range s.tools {
		if !slices.Contains(tools, name) {
			removed = append(removed, name)
		}
	}
	if len(removed) == 0 {
		return nil, nil
	}
	slices.Sort(removed)
	return removed, s.commitLocked(change{clear: removed})
}

// Hash returns "" when tool has no refinements, else the hex sha256 of its
// ordered feedback list (times and sources do not count).
func (s *Store) Hash(tool string) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.reloadLocked()
	hist := s.tools[tool]
	if len(hist) == 0 {
		return ""
	}
	h := sha256.New()
	h.Write([]byte("genui-refinements/v1;"))
	for _, r := range hist {
		fmt.Fprintf(h, "%d:%s;", len(r.Feedback), r.Feedback)
	}
	return hex.EncodeToString(h.Sum(nil))
}

// All returns a copy of every tool's history.
func (s *Store) All() map[string][]contract.Refinement {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.reloadLocked()
	out := make(map[string][]contract.Refinement, len(s.tools))
	for tool, hist := range s.tools {
		out[tool] = slices.Clone(hist)
	}
	return out
}

// commitLocked applies c to memory and merges every pending change into
// the file; s.mu must be held.
func (s *Store) commitLocked(c change) error {
	c.apply(s.tools)
	if s.path == "" {
		return nil
	}
	s.pending = append(s.pending, c)
	if err := s.saveLocked(); err != nil {
		s.log.Warn("refinements write failed; kept in memory, retried with the next change", "file", s.path, "err", err)
		return fmt.Errorf("refine: save %s: %w", s.path, err)
	}
	return nil
}

// saveLocked holds the file lock while it reads the file, applies the
// pending changes to what it holds, writes the result and adopts it as
// the store's content.
func (s *Store) saveLocked() error {
	if err := os.MkdirAll(filepath.Dir(s.path), 0o755); err != nil {
		return err
	}
	fl := flock.New(s.path+".lock", flock.SetPermissions(0o644))
	ctx, cancel := context.WithTimeout(context.Background(), lockWait)
	defer cancel()
	locked, err := fl.TryLockContext(ctx, lockRetry)
	if err != nil || !locked {
		return fmt.Errorf("lock %s: %w (another genui holds it)", fl.Path(), cmp.Or(err, errors.New("not acquired")))
	}
	defer fl.Unlock()
	tools, err := s.readForMerge()
	if err != nil {
		return err
	}
	for _, c := range s.pending {
		c.apply(tools)
	}
	data, err := json.MarshalIndent(file{Version: FormatVersion, Tools: tools}, "", "  ")
	if err != nil {
		return fmt.Errorf("encode: %w", err)
	}
	if err := os.MkdirAll(filepath.Dir(s.path), 0o755); err != nil {
		return err
	}
	// renameio: temp file beside it, fsync, rename.
	if err := maybe.WriteFile(s.path, append(data, '\n'), 0o644); err != nil {
		return err
	}
	s.tools, s.pending = tools, nil
	s.seen, _ = os.Stat(s.path)
	s.checked = time.Now()
	return nil
}

// readForMerge reads the file's content under the lock: empty when there
// is none; an unreadable file is moved aside (nothing lost) and counts as
// empty.
func (s *Store) readForMerge() (map[string][]contract.Refinement, error) {
	data, err := safefile.Read(s.path, MaxFileBytes)
	if errors.Is(err, fs.ErrNotExist) {
		return map[string][]contract.Refinement{}, nil
	}
	var bad *safefile.BadFileError
	if err != nil && !errors.As(err, &bad) {
		return nil, err
	}
	var tools map[string][]contract.Refinement
	if err == nil {
		tools, err = parse(data)
	}
	if err != nil {
		if qerr := s.quarantine(err); qerr != nil {
			return nil, qerr
		}
		return map[string][]contract.Refinement{}, nil
	}
	return tools, nil
}

// reloadLocked adopts the file's content when another process changed it
// since this store last read or wrote it (checked at most every
// reloadEvery; changes still pending here are applied on top). Errors keep
// what is in memory.
func (s *Store) reloadLocked() {
	if s.path == "" || time.Since(s.checked) < reloadEvery {
		return
	}
	s.checked = time.Now()
	fi, err := os.Stat(s.path)
	if err != nil || s.seen != nil && os.SameFile(fi, s.seen) && fi.ModTime().Equal(s.seen.ModTime()) && fi.Size() == s.seen.Size() {
		return
	}
	data, err := safefile.Read(s.path, MaxFileBytes)
	if err != nil {
		return
	}
	tools, err := parse(data)
	if err != nil {
		return
	}
	for _, c := range s.pending {
		c.apply(tools)
	}
	s.tools, s.seen = tools, fi
}
