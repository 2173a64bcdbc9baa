package httpapi

// DIR's port files and who owns them. DIR/mcp-port and DIR/ui-port hold
// the port number and nothing else (`curl localhost:$(cat .ui/mcp-port)/wait`
// works). The live genui that wrote them holds DIR/genui.lock, an flock
// (github.com/gofrs/flock: maintained, and portable to Windows' LockFileEx)
// that the kernel drops when the process dies, however it dies: ownership
// never depends on a pid that another process may have reused. The lock
// file's content names the owner (pid, ports) for messages.

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/gofrs/flock"
	"github.com/google/renameio/v2/maybe"

	"github.com/genui-dev/genui/engine"
	"github.com/genui-dev/genui/engine/safefile"
)

// LockFileName is DIR's owner lock.
const LockFileName = "genui.lock"

// claimWait bounds taking the owner lock: a reader (ReadPortFile) holds it
// shared for a moment; a live owner holds it for good.
const claimWait = time.Second

// Owner is the content of DIR/genui.lock: which genui serves DIR.
type Owner struct {
	// Instance is the genui process's random id (engine.InstanceID), which
	// its /state reports too: a workbench checks both match before it
	// trusts the port.
	Instance string    `json:"instance"`
	PID      int       `json:"pid"`
	UIPort   int       `json:"uiPort"`
	MCPPort  int       `json:"mcpPort"`
	Started  time.Time `json:"started"`
}

// claimPortFiles takes DIR's owner lock and writes the port files, or
// records why not (another live genui owns DIR: PortConflict; the files
// cannot be written: PortFilesError). The returned func removes our port
// files and releases the lock.
func (s *Server) claimPortFiles(uiPort, apiPort int) (release func()) {
	dir := s.opts.Dir
	uiFile, apiFile := filepath.Join(dir, "ui-port"), filepath.Join(dir, "mcp-port")
	fl, owner, err := claimDir(dir)
	switch {
	case err != nil:
		s.setPortFilesErr(fmt.Errorf("cannot take %s, so %s and %s are not written: %w", filepath.Join(dir, LockFileName), apiFile, uiFile, err))
		return func() {}
	case fl == nil:
		other := "another genui"
		at := ""
		if owner != nil && owner.PID > 0 {
			other = fmt.Sprintf("another genui (pid %d)", owner.PID)
		}
		if owner != nil && owner.MCPPort > 0 {
			at = fmt.Sprintf(" on http://127.0.0.1:%d", owner.MCPPort)
		}
		conflict := fmt.Errorf("%s already serves %s%s; this one serves http://127.0.0.1:%d but leaves %s alone, so %s/mcp and `genui preview` reach the other one "+
			"(use a different --dir to run both)", other, dir, at, apiPort, apiFile, dir)
		s.mu.Lock()
		s.portConflict = conflict
		s.mu.Unlock()
		s.publishURLs()
		s.log.Warn("port files kept", "err", conflict)
		return func() {}
	}
	// The owner is recorded while the lock is held, by a yielding genui
	// too (a genui started later overwrites it when it takes the lock).
	info, _ := json.Marshal(Owner{Instance: engine.InstanceID(), PID: os.Getpid(), UIPort: uiPort, MCPPort: apiPort,
		Started: time.Now().UTC().Round(time.Second)})
	// Written in place (not renamed): the lock lives on this file.
	if err := os.WriteFile(fl.Path(), append(info, '\n'), 0o644); err != nil {
		s.log.Warn("could not record the owner in the lock file", "file", fl.Path(), "err", err)
	}
	if s.opts.YieldPortFiles {
		// Nobody else owns DIR, but a genui started later may: leave the
		// lock free so it takes the port files over.
		_ = fl.Unlock()
		fl = nil
	}
	var written []string
	for _, f := range []struct {
		path string
		port int
	}{{uiFile, uiPort}, {apiFile, apiPort}} {
		if err := WritePortFile(f.path, f.port); err != nil {
			s.setPortFilesErr(err)
			continue
		}
		written = append(written, f.path)
	}
	return func() {
		for _, p := range written {
			removeOwnPortFile(p, uiPort, apiPort)
		}
		if fl != nil {
			_ = os.Truncate(fl.Path(), 0)
			_ = fl.Unlock()
		}
	}
}

// setPortFilesErr records and logs a port-file failure; serving goes on.
func (s *Server) setPortFilesErr(err error) {
	s.mu.Lock()
	s.portFilesErr = errors.Join(s.portFilesErr, err)
	s.mu.Unlock()
	s.log.Warn("port files not written; serving anyway", "err", err)
}

// claimDir takes dir's owner lock. It returns the held lock, or nil and
// what the lock file says about the live genui holding it.
func claimDir(dir string) (*flock.Flock, *Owner, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, nil, err
	}
	fl, err := lockFile(dir)
	if err != nil {
		return nil, nil, err
	}
	ctx, cancel := context.WithTimeout(context.Background(), claimWait)
	defer cancel()
	ok, err := fl.TryLockContext(ctx, 20*time.Millisecond)
	if ok {
		return fl, nil, nil
	}
	if err != nil && !errors.Is(err, context.DeadlineExceeded) {
		return nil, nil, err
	}
	return nil, readOwner(dir), nil
}

// lockFile is DIR/genui.lock as a lock, refused unless it is (or links
// to) a regular file or absent; it is opened without blocking, so a FIFO
// put in its place between the check and the open cannot hang genui.
func lockFile(dir string) (*flock.Flock, error) {
	p := filepath.Join(dir, LockFileName)
	if fi, err := os.Stat(p); err == nil && !fi.Mode().IsRegular() {
		return nil, &safefile.BadFileError{Reason: fmt.Sprintf("%s: not a regular file (%s)", p, fi.Mode().Type())}
	}
	return flock.New(p, flock.SetPermissions(0o644), flock.SetFlag(os.O_CREATE|os.O_RDONLY|syscall.O_NONBLOCK)), nil
}

// readOwner reads dir's lock file (nil when it holds nothing readable).
func readOwner(dir string) *Owner {
	o, _ := ReadOwner(dir)
	return o
}

// maxLockFileBytes bounds reading DIR/genui.lock.
const maxLockFileBytes = 4096

// ReadOwner reads DIR/genui.lock (a regular file of at most 4 KiB, read
// without blocking: see engine/safefile) and returns what it says about
// the genui that wrote it; it does not say whether that genui still runs
// (DirOwned does).
func ReadOwner(dir string) (*Owner, error) {
	p := filepath.Join(dir, LockFileName)
	b, err := safefile.Read(p, maxLockFileBytes)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", p, err)
	}
	var o Owner
	if err := json.Unmarshal(b, &o); err != nil {
		return nil, fmt.Errorf("%s names no genui (%d bytes): %w", p, len(b), err)
	}
	return &o, nil
}

// DirGenui is what DIR's files say about the genui serving DIR: the API
// port DIR/mcp-port names, the instance DIR/genui.lock names, and whether
// a live process holds that lock.
type DirGenui struct {
	Port     int
	Instance string
	Held     bool
}

// LocateDir reads DIR/mcp-port and DIR/genui.lock (regular files only,
// bounded, never blocking on a FIFO) and reports the genui they name.
// Whether that genui answers, and is the instance named, is for the
// caller to check (its /state reports its instance).
func LocateDir(dir string) (DirGenui, error) {
	port, held, err := ReadPortFile(filepath.Join(dir, "mcp-port"))
	if err != nil {
		return DirGenui{}, err
	}
	o, err := ReadOwner(dir)
	if err != nil {
		return DirGenui{}, err
	}
	if o.Instance == "" {
		return DirGenui{}, fmt.Errorf("%s names no genui instance (written by an older genui?)", filepath.Join(dir, LockFileName))
	}
	return DirGenui{Port: port, Instance: o.Instance, Held: held}, nil
}

// DirOwned reports whether a live genui holds dir's owner lock. It takes
// the lock shared for a moment to find out.
func DirOwned(dir string) bool {
	if _, err := os.Stat(filepath.Join(dir, LockFileName)); err != nil {
		return false // a live owner has created it
	}
	fl, err := lockFile(dir)
	if err != nil {
		return false
	}
	ok, err := fl.TryRLock()
	if err != nil {
		return false
	}
	if ok {
		_ = fl.Unlock()
		return false
	}
	return true
}

// removeOwnPortFile removes path while it still names one of our ports.
func removeOwnPortFile(path string, ports ...int) {
	b, err := safefile.Read(path, 64)
	if err != nil {
		return
	}
	port, err := parsePort(b)
	if err != nil {
		return
	}
	for _, p := range ports {
		if p == port {
			_ = os.Remove(path)
			return
		}
	}
}

// WritePortFile writes "PORT\n" atomically, replacing a stale file. Two
// writers never share a temporary file.
func WritePortFile(path string, port int) error {
	if err := maybe.WriteFile(path, []byte(strconv.Itoa(port)+"\n"), 0o644); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	return nil
}

// ReadPortFile reads a port file (DIR/mcp-port or DIR/ui-port) and reports
// whether a live genui owns DIR (holds DIR/genui.lock), so the port is
// worth trying. Port files of older genuis ("PORT\nPID\n") read the same.
func ReadPortFile(path string) (port int, alive bool, err error) {
	b, err := safefile.Read(path, 64)
	if err != nil {
		var bad *safefile.BadFileError
		if errors.As(err, &bad) {
			err = fmt.Errorf("%s: %w", path, err)
		}
		return 0, false, err
	}
	if port, err = parsePort(b); err != nil {
		return 0, false, fmt.Errorf("%s: %w", path, err)
	}
	return port, DirOwned(filepath.Dir(path)), nil
}

// parsePort reads the port on a port file's first line.
func parsePort(b []byte) (int, error) {
	fields := strings.Fields(string(b))
	if len(fields) == 0 {
		return 0, errors.New("empty port file")
	}
	port, err := strconv.Atoi(fields[0])
	if err != nil || port <= 0 || port > 65535 {
		return 0, fmt.Errorf("bad port %q", fields[0])
	}
	return port, nil
}
