// Package watch notices changes to a server's files (fsnotify, with
// doublestar globs) and reports them debounced, and runs a build command
// with its output in the log. The engine restarts a stdio upstream on what
// it reports (engine/watching.go).
package watch

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync/atomic"
	"time"

	"github.com/bmatcuk/doublestar/v4"
	"github.com/fsnotify/fsnotify"
)

// DefaultDebounce is how long the files must stay quiet before a change
// is reported.
const DefaultDebounce = 300 * time.Millisecond

// DefaultIgnore are left out of every watch: version control, dependency
// and cache folders, editor swap, backup, lock and probe files (vim's
// *.sw? and 4913, emacs' .#* and #*#, JetBrains' ___jb_*___, kate's,
// gedit's .goutputstream-*) and the temporaries editors and atomic
// writers save through (*.tmp, *.tmp.N), compiled Python. A pattern
// without '/' matches a file or folder name at any depth.
var DefaultIgnore = []string{".git", ".hg", ".svn", "node_modules", "__pycache__", "*.pyc", ".DS_Store",
	"*.swp", "*.swx", "*.swo", "*.sw[a-p]", "*~", ".#*", "#*#", "4913", "*.tmp", "*.tmp.[0-9]*",
	"*___jb_tmp___", "*___jb_old___", "*.kate-swp", ".goutputstream-*"}

// maxDirs bounds the folders one watch holds (inotify watches are a
// per-user resource).
const maxDirs = 20000

// Options configure a Watcher.
type Options struct {
	// Root is what relative paths are relative to (default the working
	// directory).
	Root string
	// Paths are files, folders (watched with everything under them) or
	// doublestar globs ("src/**/*.ts").
	Paths []string
	// Ignore are globs left out besides DefaultIgnore: relative paths
	// ("dist/**", "build/server") or names at any depth ("*.log").
	Ignore []string
	// Debounce is the quiet time before a change is reported (default
	// DefaultDebounce).
	Debounce time.Duration
	Logger   *slog.Logger
}

// matcher is one watched path.
type matcher struct {
	kind    int // file, dir or glob
	path    string
	pattern string
}

const (
	kindFile = iota
	kindDir
	kindGlob
)

// Watcher reports changes under its paths. Create with New, then Run.
type Watcher struct {
	o        Options
	log      *slog.Logger
	fw       *fsnotify.Watcher
	matchers []matcher
	ignore   []string
	dirs     map[string]bool
	// Dropped counts changes noticed while a report was being handled
	// (the build and restart write files too; see Run).
	dropped atomic.Int64
	// handling is true from a report's start until Run is ready for the
	// next change (what Run's own busy says, readable from outside: a
	// test waits for it before its next write).
	handling atomic.Bool
	// mtimes are the modification times last seen of files that changed
	// (Run's goroutine only): a permission-only event whose file's mtime
	// moved is a touch, a change.
	mtimes map[string]time.Time
}

// maxMtimes bounds mtimes (it starts over when full).
const maxMtimes = 10000

// touched reports whether a permission-only event on path changed its
// mtime (touch): against the mtime last seen, or, for a file not seen
// yet, an mtime within the last two seconds (chmod leaves it old).
func (w *Watcher) touched(rel, path string) bool {
	fi, err := os.Stat(path)
	if err != nil || fi.IsDir() {
		return false
	}
	last, seen := w.mtimes[rel]
	w.remember(rel, fi.ModTime())
	if seen {
		return !fi.ModTime().Equal(last)
	}
	return time.Since(fi.ModTime()).Abs() < 2*time.Second
}

func (w *Watcher) remember(rel string, mt time.Time) {
	if w.mtimes == nil || len(w.mtimes) >= maxMtimes {
		w.mtimes = map[string]time.Time{}
	}
	w.mtimes[rel] = mt
}

// New checks the paths (each must exist, or be a glob whose fixed part
// does) and starts watching their folders.
func New(o Options) (*Watcher, error) {
	if len(o.Paths) == 0 {
		return nil, errors.New("watch: no paths")
	}
	if o.Root == "" {
		wd, err := os.Getwd()
		if err != nil {
			return nil, err
		}
		o.Root = wd
	}
	root, err := filepath.Abs(o.Root)
	if err != nil {
		return nil, err
	}
	o.Root = root
	if o.Debounce <= 0 {
		o.Debounce = DefaultDebounce
	}
	if o.Logger == nil {
		o.Logger = slog.New(slog.DiscardHandler)
	}
	w := &Watcher{o: o, log: o.Logger.With("component", "watch"), dirs: map[string]bool{}}
	for _, p := range append(append([]string(nil), DefaultIgnore...), o.Ignore...) {
		p = filepath.ToSlash(strings.TrimPrefix(filepath.ToSlash(p), "./"))
		if !doublestar.ValidatePattern(p) {
			return nil, fmt.Errorf("watch: ignore pattern %q is not a valid glob", p)
		}
		w.ignore = append(w.ignore, strings.TrimSuffix(p, "/"))
	}
	w.fw, err = fsnotify.NewWatcher()
	if err != nil {
		return nil, fmt.Errorf("watch: %w", err)
	}
	for _, p := range o.Paths {
		if err := w.add(p); err != nil {
			w.fw.Close()
			return nil, err
		}
	}
	return w, nil
}

// add resolves one watched path and watches the folders it needs.
func (w *Watcher) add(p string) error {
	rel, err := w.rel(p)
	if err != nil {
		return fmt.Errorf("watch %q: %w", p, err)
	}
	if strings.ContainsAny(rel, "*?[{") {
		if !doublestar.ValidatePattern(rel) {
			return fmt.Errorf("watch %q: not a valid glob", p)
		}
		base, _ := doublestar.SplitPattern(rel)
		abs := filepath.Join(w.o.Root, filepath.FromSlash(base))
		if fi, err := os.Stat(abs); err != nil || !fi.IsDir() {
			return fmt.Errorf("watch %q: its folder %s does not exist", p, abs)
		}
		w.matchers = append(w.matchers, matcher{kind: kindGlob, pattern: rel})
		return w.addTree(abs)
	}
	abs := filepath.Join(w.o.Root, filepath.FromSlash(rel))
	fi, err := os.Stat(abs)
	if err != nil {
		return fmt.Errorf("watch %q: %w", p, err)
	}
	if fi.IsDir() {
		w.matchers = append(w.matchers, matcher{kind: kindDir, path: rel})
		return w.addTree(abs)
	}
	w.matchers = append(w.matchers, matcher{kind: kindFile, path: rel})
	// The folder, not the file: editors save by writing a new file and
	// renaming it over the old one.
	return w.addDir(filepath.Dir(abs))
}

// rel is p relative to the root, with forward slashes ("." for the root).
func (w *Watcher) rel(p string) (string, error) {
	if !filepath.IsAbs(p) {
		p = filepath.Join(w.o.Root, p)
	}
	r, err := filepath.Rel(w.o.Root, filepath.Clean(p))
	if err != nil {
		return "", err
	}
	return filepath.ToSlash(r), nil
}

// addTree watches dir and every folder under it that is not ignored.
func (w *Watcher) addTree(dir string) error {
	return filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			if path == dir {
				return err
			}
			return nil // a folder that went away or is unreadable
		}
		if !d.IsDir() {
			return nil
		}
		if path != dir {
			if rel, err := w.rel(path); err == nil && w.ignored(rel) {
				return filepath.SkipDir
			}
		}
		return w.addDir(path)
	})
}

func (w *Watcher) addDir(dir string) error {
	if w.dirs[dir] {
		return nil
	}
	if len(w.dirs) >= maxDirs {
		return fmt.Errorf("watch: more than %d folders; watch fewer paths or ignore more (upstream.watch.ignore)", maxDirs)
	}
	if err := w.fw.Add(dir); err != nil {
		return fmt.Errorf("watch %s: %w", dir, err)
	}
	w.dirs[dir] = true
	return nil
}

// ignored reports whether rel (or a folder it is in) matches an ignore
// pattern.
func (w *Watcher) ignored(rel string) bool {
	parts := strings.Split(rel, "/")
	for _, p := range w.ignore {
		if strings.Contains(p, "/") {
			if doublestar.MatchUnvalidated(p, rel) {
				return true
			}
			// A pattern naming a folder covers what is under it.
			for i := 1; i < len(parts); i++ {
				if doublestar.MatchUnvalidated(p, strings.Join(parts[:i], "/")) {
					return true
				}
			}
			continue
		}
		for _, part := range parts {
			if doublestar.MatchUnvalidated(p, part) {
				return true
			}
		}
	}
	return false
}

// watched reports whether rel is under a watched path.
func (w *Watcher) watched(rel string) bool {
	for _, m := range w.matchers {
		switch m.kind {
		case kindFile:
			if rel == m.path {
				return true
			}
		case kindDir:
			if m.path == "." || rel == m.path || strings.HasPrefix(rel, m.path+"/") {
				return true
			}
		case kindGlob:
			if doublestar.MatchUnvalidated(m.pattern, rel) {
				return true
			}
		}
	}
	return false
}

// Run reports changes until ctx ends: once the watched files have been
// quiet for the debounce time, fire gets the changed files (relative to
// the root, sorted). fire runs on a goroutine of its own, one at a time;
// changes noticed while it runs are dropped (the build and the restarting
// server write files of their own; they are logged at debug level), and
// the next change after it returns is reported as usual.
func (w *Watcher) Run(ctx context.Context, fire func(ctx context.Context, files []string)) error {
	defer w.fw.Close()
	pending := map[string]bool{}
	t := time.NewTimer(time.Hour)
	t.Stop()
	busy := false
	done := make(chan struct{})
	for {
		select {
		case <-ctx.Done():
			if busy {
				<-done
			}
			return nil
		case err, ok := <-w.fw.Errors:
			if !ok {
				return errors.New("watch: the file watcher stopped")
			}
			w.log.Warn("watch: file watcher error", "err", err)
		case ev, ok := <-w.fw.Events:
			if !ok {
				return errors.New("watch: the file watcher stopped")
			}
			files := w.event(ev)
			if len(files) == 0 {
				continue
			}
			if busy {
				w.dropped.Add(int64(len(files)))
				w.log.Debug("watch: change while restarting; part of this restart", "files", files, "op", ev.Op.String())
				continue
			}
			for _, f := range files {
				pending[f] = true
			}
			t.Reset(w.o.Debounce)
		case <-t.C:
			if busy || len(pending) == 0 {
				continue
			}
			files := make([]string, 0, len(pending))
			for f := range pending {
				files = append(files, f)
			}
			sort.Strings(files)
			clear(pending)
			busy = true
			w.handling.Store(true)
			go func() {
				defer func() { done <- struct{}{} }()
				fire(ctx, files)
			}()
		case <-done:
			busy = false
			w.handling.Store(false)
		}
	}
}

// event filters one fsnotify event: a change (not a permission change)
// of a watched, not ignored file. A new folder is watched too, and the
// watched files already in it count as changed (they were written before
// its watch began).
func (w *Watcher) event(ev fsnotify.Event) []string {
	rel, err := w.rel(ev.Name)
	if err != nil || strings.HasPrefix(rel, "../") || w.ignored(rel) {
		return nil
	}
	if ev.Op == fsnotify.Chmod {
		// A permission change is no change; a touch (the mtime moved,
		// reported as an attribute change) is.
		if !w.watched(rel) || !w.touched(rel, ev.Name) {
			return nil
		}
		return []string{rel}
	}
	if ev.Op.Has(fsnotify.Create) {
		if fi, err := os.Stat(ev.Name); err == nil && fi.IsDir() {
			if !w.dirWanted(rel) {
				return nil
			}
			if err := w.addTree(ev.Name); err != nil {
				w.log.Warn("watch: cannot watch a new folder", "dir", ev.Name, "err", err)
			}
			var files []string
			_ = filepath.WalkDir(ev.Name, func(path string, d fs.DirEntry, err error) error {
				if err != nil || d.IsDir() {
					return nil
				}
				if r, err := w.rel(path); err == nil && !w.ignored(r) && w.watched(r) {
					files = append(files, r)
				}
				return nil
			})
			return files
		}
	}
	if !w.watched(rel) {
		return nil
	}
	if fi, err := os.Stat(ev.Name); err == nil && !fi.IsDir() {
		w.remember(rel, fi.ModTime())
	}
	return []string{rel}
}

// dirWanted reports whether a new folder can hold watched files.
func (w *Watcher) dirWanted(rel string) bool {
	for _, m := range w.matchers {
		switch m.kind {
		case kindDir:
			if m.path == "." || rel == m.path || strings.HasPrefix(rel, m.path+"/") {
				return true
			}
		case kindGlob:
			base, _ := doublestar.SplitPattern(m.pattern)
			if base == "." || rel == base || strings.HasPrefix(rel, base+"/") {
				return true
			}
		}
	}
	return false
}
