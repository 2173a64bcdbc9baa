// Package refine keeps the ordered refinement history (user feedback) of
// each tool's UI, persisted as one JSON file. The history's Hash is part of
// the UI cache key, so adding feedback makes the UI regenerate.
package refine

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"syscall"
	"time"
)

// FormatVersion is the version of refinements.json.
const FormatVersion = 1

// MaxFeedbackBytes bounds one piece of feedback.
const MaxFeedbackBytes = 16 << 10

// Refinement is one piece of feedback on a tool's UI.
type Refinement struct {
	Feedback string    `json:"feedback"`
	Time     time.Time `json:"time"`
	// Source says where it came from (e.g. "tui", "mcp", "preview", "http").
	Source string `json:"source,omitempty"`
}

// file is the JSON layout of refinements.json.
type file struct {
	Version int                     `json:"version"`
	Tools   map[string][]Refinement `json:"tools"`
}

// Store is the refinement history of every tool. It is safe for concurrent
// use. Every change is written to disk atomically before the method returns;
// if that write fails the change still applies in memory and the error is
// returned.
type Store struct {
	path string
	log  *slog.Logger

	mu    sync.Mutex
	tools map[string][]Refinement
}

// Open loads the store at path (normally DIR/refinements.json); path ""
// keeps history in memory only. A missing file starts empty. A corrupt file
// (or one of another version) is renamed to path.corrupt-<unix>, logged as a
// warning, and the store starts empty. Other read errors are returned.
func Open(path string, logger *slog.Logger) (*Store, error) {
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	s := &Store{path: path, log: logger.With("component", "refine"), tools: map[string][]Refinement{}}
	if path == "" {
		return s, nil
	}
	s.removeStaleTemps()
	data, err := readRegularFile(path, MaxFileBytes)
	if errors.Is(err, fs.ErrNotExist) {
		return s, nil
	}
	var bad *badFileError
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
	return s, nil
}

// MaxFileBytes bounds refinements.json; a bigger file is not one genui
// wrote (a thousand tools with a hundred 16 KiB refinements each fit).
const MaxFileBytes = 64 << 20

// badFileError is a refinements.json that is a FIFO, a device or a socket,
// or too big: it is moved aside like a corrupt one. (A directory there is
// an error: genui cannot fix that itself.)
type badFileError struct{ reason string }

func (e *badFileError) Error() string { return e.reason }

// readRegularFile reads path if it is (or links to) a regular file of at
// most limit bytes. It never blocks on a FIFO (opened non-blocking, then
// refused) and never trusts the reported size: a device such as /dev/zero
// is refused, and reading stops after limit bytes whatever the file claims.
func readRegularFile(path string, limit int64) ([]byte, error) {
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if fi.IsDir() {
		return nil, errors.New("is a directory")
	}
	if !fi.Mode().IsRegular() {
		return nil, &badFileError{fmt.Sprintf("not a regular file (%s)", fi.Mode().Type())}
	}
	data, err := io.ReadAll(io.LimitReader(f, limit+1))
	if err != nil {
		return nil, err
	}
	if int64(len(data)) > limit {
		return nil, &badFileError{fmt.Sprintf("more than %d bytes", limit)}
	}
	return data, nil
}

// staleTempAge is how old a temp file must be before Open deletes it, so a
// second genui process opening the same DIR never removes a write in flight.
const staleTempAge = time.Minute

// removeStaleTemps deletes temp files left by writes that died before the rename.
func (s *Store) removeStaleTemps() {
	temps, _ := filepath.Glob(filepath.Join(filepath.Dir(s.path), "."+filepath.Base(s.path)+".tmp-*"))
	for _, t := range temps {
		if fi, err := os.Stat(t); err == nil && time.Since(fi.ModTime()) > staleTempAge {
			s.log.Info("removing temp file left by an interrupted write", "file", t)
			os.Remove(t)
		}
	}
}

// parse decodes and checks refinements.json.
func parse(data []byte) (map[string][]Refinement, error) {
	var f file
	if err := json.Unmarshal(data, &f); err != nil {
		return nil, fmt.Errorf("corrupt: %w", err)
	}
	if f.Version != FormatVersion {
		return nil, fmt.Errorf("format version %d, want %d", f.Version, FormatVersion)
	}
	tools := make(map[string][]Refinement, len(f.Tools))
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
func (s *Store) Add(tool, feedback, source string) ([]Refinement, error) {
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
	s.tools[tool] = append(s.tools[tool], Refinement{Feedback: feedback, Time: time.Now().UTC().Round(0), Source: source})
	return slices.Clone(s.tools[tool]), s.save()
}

// History returns tool's refinements, oldest first (nil if none).
func (s *Store) History(tool string) []Refinement {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.tools[tool])
}

// Clear drops tool's history.
func (s *Store) Clear(tool string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, ok := s.tools[tool]; !ok {
		return nil
	}
	delete(s.tools, tool)
	return s.save()
}

// Retain drops the history of every tool not in tools (tools that no longer
// exist upstream) and returns the dropped names, sorted.
func (s *Store) Retain(tools []string) (removed []string, err error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for name := range s.tools {
		if !slices.Contains(tools, name) {
			removed = append(removed, name)
			delete(s.tools, name)
		}
	}
	if len(removed) == 0 {
		return nil, nil
	}
	slices.Sort(removed)
	return removed, s.save()
}

// Hash returns "" when tool has no refinements, else the hex sha256 of its
// ordered feedback list (times and sources do not count).
func (s *Store) Hash(tool string) string {
	s.mu.Lock()
	defer s.mu.Unlock()
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
func (s *Store) All() map[string][]Refinement {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make(map[string][]Refinement, len(s.tools))
	for tool, hist := range s.tools {
		out[tool] = slices.Clone(hist)
	}
	return out
}

// save writes the whole store atomically; s.mu must be held.
func (s *Store) save() error {
	if s.path == "" {
		return nil
	}
	data, err := json.MarshalIndent(file{Version: FormatVersion, Tools: s.tools}, "", "  ")
	if err != nil {
		return fmt.Errorf("refine: encode: %w", err)
	}
	if err := writeFileAtomic(s.path, append(data, '\n')); err != nil {
		s.log.Warn("refinements write failed", "file", s.path, "err", err)
		return fmt.Errorf("refine: save %s: %w", s.path, err)
	}
	return nil
}

// writeFileAtomic writes data to path via a temp file in the same
// directory: write, fsync, rename, fsync the directory.
func writeFileAtomic(path string, data []byte) (err error) {
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	f, err := os.CreateTemp(dir, "."+filepath.Base(path)+".tmp-*")
	if err != nil {
		return err
	}
	defer func() {
		if err != nil {
			f.Close()
			os.Remove(f.Name())
		}
	}()
	if _, err = f.Write(data); err != nil {
		return err
	}
	if err = f.Sync(); err != nil {
		return err
	}
	if err = f.Close(); err != nil {
		return err
	}
	if err = os.Rename(f.Name(), path); err != nil {
		return err
	}
	if d, derr := os.Open(dir); derr == nil {
		d.Sync()
		d.Close()
	}
	return nil
}
