package watch

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/exec"
	"strings"
	"sync"
	"time"
)

// DefaultBuildTimeout bounds a build.
const DefaultBuildTimeout = 5 * time.Minute

// maxOutputTail is how much of a build's output a result keeps (the log
// has every line).
const maxOutputTail = 16 << 10

// maxLine bounds one logged output line.
const maxLine = 64 << 10

// BuildResult is a build's outcome.
type BuildResult struct {
	// Output is the end of what the build printed (stdout and stderr
	// interleaved, at most 16 KiB; Cut says how many bytes came before).
	Output string
	Cut    int
	// ExitCode is the build's exit status (-1 when it did not run to its
	// end); Err says why it failed (nil: success).
	ExitCode int
	Err      error
	Duration time.Duration
}

// Build runs command through the shell (sh -c; cmd /C on Windows) in dir,
// in a process group of its own (a timeout or ctx stops everything it
// started), and logs each line it prints (component "build").
func Build(ctx context.Context, command, dir string, timeout time.Duration, log *slog.Logger) BuildResult {
	if timeout <= 0 {
		timeout = DefaultBuildTimeout
	}
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	log = log.With("component", "build")
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	start := time.Now()
	cmd := shellCommand(ctx, command)
	cmd.Dir = dir
	cmd.Env = os.Environ()
	r, w, err := os.Pipe()
	if err != nil {
		return BuildResult{ExitCode: -1, Err: err}
	}
	cmd.Stdout, cmd.Stderr = w, w
	cmd.WaitDelay = 2 * time.Second
	tail := &tailBuffer{max: maxOutputTail}
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		sc := bufio.NewScanner(r)
		sc.Buffer(make([]byte, 4096), maxLine)
		for sc.Scan() {
			line := sc.Text()
			tail.add(line + "\n")
			log.Info(line)
		}
		_, _ = io.Copy(io.Discard, r) // a line over the bound: drain the rest
	}()
	log.Info("build started", "command", command)
	err = cmd.Start()
	w.Close()
	if err == nil {
		err = cmd.Wait()
	}
	wg.Wait()
	r.Close()
	res := BuildResult{Duration: time.Since(start), ExitCode: -1}
	res.Output, res.Cut = tail.String()
	if cmd.ProcessState != nil {
		res.ExitCode = cmd.ProcessState.ExitCode()
	}
	var ee *exec.ExitError
	switch {
	case err == nil:
		res.ExitCode = 0
	case errors.Is(ctx.Err(), context.DeadlineExceeded):
		res.Err = fmt.Errorf("the build did not finish within %s", timeout)
	case ctx.Err() != nil:
		res.Err = fmt.Errorf("the build was stopped: %w", ctx.Err())
	case errors.As(err, &ee):
		res.Err = fmt.Errorf("the build failed (exit status %d)", res.ExitCode)
	default:
		res.Err = fmt.Errorf("the build did not run: %w", err)
	}
	if res.Err != nil {
		log.Warn("build failed", "command", command, "err", res.Err, "ms", res.Duration.Milliseconds())
	} else {
		log.Info("build finished", "command", command, "ms", res.Duration.Milliseconds())
	}
	return res
}

// tailBuffer keeps the last max bytes written (at line boundaries).
type tailBuffer struct {
	max  int
	mu   sync.Mutex
	buf  []string
	size int
	cut  int
}

func (t *tailBuffer) add(line string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if len(line) > t.max {
		t.cut += len(line) - t.max
		line = line[len(line)-t.max:]
	}
	t.buf = append(t.buf, line)
	t.size += len(line)
	for t.size > t.max && len(t.buf) > 1 {
		t.size -= len(t.buf[0])
		t.cut += len(t.buf[0])
		t.buf = t.buf[1:]
	}
}

func (t *tailBuffer) String() (string, int) {
	t.mu.Lock()
	defer t.mu.Unlock()
	return strings.Join(t.buf, ""), t.cut
}
