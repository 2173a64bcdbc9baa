package watch

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"os/exec"
	"sync"
	"time"
)

// DefaultBuildTimeout bounds a build.
const DefaultBuildTimeout = 5 * time.Minute

// maxOutputTail is how much of a build's output a result keeps.
const maxOutputTail = 16 << 10

// maxLine bounds one logged output line.
const maxLine = 64 << 10

// How many output lines a build logs: the first logBurst at once, then at
// most logPerSecond a second, never more than maxLoggedLines in all. The
// rest are counted and the count logged at the end ("build output lines
// dropped"): a build that prints 100 MB costs the log a few hundred lines,
// not one per line of output, and the result keeps the last 16 KiB.
const (
	logBurst       = 200
	logPerSecond   = 20
	maxLoggedLines = 1000
)

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
// started, however much it prints), and logs what it prints (component
// "build"), rate-limited: see logBurst.
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
	// One writer for both: exec gives the build one pipe and one goroutine
	// copying it. WaitDelay bounds the wait for that copy once the build has
	// ended or been killed, even when a process that left the group still
	// holds the output open.
	out := newBuildOutput(log, start)
	cmd.Stdout, cmd.Stderr = out, out
	cmd.WaitDelay = 2 * time.Second
	log.Info("build started", "command", command)
	err := cmd.Run()
	if errors.Is(err, exec.ErrWaitDelay) && cmd.ProcessState != nil && cmd.ProcessState.Success() && ctx.Err() == nil {
		log.Warn("the build finished but left a process holding its output open; stopped reading it", "command", command)
		err = nil
	}
	out.flush()
	res := BuildResult{Duration: time.Since(start), ExitCode: -1}
	res.Output, res.Cut = out.tail()
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

// buildOutput takes what a build prints: it keeps the last maxOutputTail
// bytes for the result and logs whole lines (each cut at maxLine) as the
// rate limit allows, counting the lines it drops. Lines are found with
// bytes.IndexByte over each chunk, and a chunk that arrives with no log
// budget left is only counted, so flooding output costs little.
type buildOutput struct {
	log   *slog.Logger
	start time.Time

	mu       sync.Mutex
	buf      []byte // the output's end: at most 2*maxOutputTail bytes
	total    int    // bytes written
	line     []byte // the line being assembled (at most maxLine bytes)
	lineLong bool   // line was cut at maxLine
	logged   int    // lines logged
	dropped  int    // lines not logged
}

func newBuildOutput(log *slog.Logger, start time.Time) *buildOutput {
	return &buildOutput{log: log, start: start}
}

// budgetLocked is how many more lines may be logged now.
func (o *buildOutput) budgetLocked() int {
	allowed := logBurst + int(time.Since(o.start)/time.Second)*logPerSecond
	return min(allowed, maxLoggedLines) - o.logged
}

func (o *buildOutput) Write(p []byte) (int, error) {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.keepTailLocked(p)
	rest := p
	budget := o.budgetLocked()
	for len(rest) > 0 {
		if budget <= 0 {
			n := bytes.Count(rest, newline)
			if n == 0 {
				o.appendLineLocked(rest)
				break
			}
			o.dropped += n
			o.line, o.lineLong = o.line[:0], false
			o.appendLineLocked(rest[bytes.LastIndexByte(rest, '\n')+1:])
			break
		}
		i := bytes.IndexByte(rest, '\n')
		if i < 0 {
			o.appendLineLocked(rest)
			break
		}
		o.appendLineLocked(rest[:i])
		o.logLineLocked()
		budget--
		rest = rest[i+1:]
	}
	return len(p), nil
}

var newline = []byte{'\n'}

// appendLineLocked adds b to the line being assembled, up to maxLine.
func (o *buildOutput) appendLineLocked(b []byte) {
	if room := maxLine - len(o.line); len(b) > room {
		b, o.lineLong = b[:room], true
	}
	o.line = append(o.line, b...)
}

// logLineLocked logs the assembled line and starts the next.
func (o *buildOutput) logLineLocked() {
	line := string(bytes.TrimSuffix(o.line, []byte{'\r'}))
	if o.lineLong {
		o.log.Info(line, "cut", true)
	} else {
		o.log.Info(line)
	}
	o.logged++
	o.line, o.lineLong = o.line[:0], false
}

// keepTailLocked appends p to the kept end of the output.
func (o *buildOutput) keepTailLocked(p []byte) {
	o.total += len(p)
	if len(p) >= maxOutputTail {
		o.buf = append(o.buf[:0], p[len(p)-maxOutputTail:]...)
		return
	}
	if len(o.buf)+len(p) > 2*maxOutputTail {
		n := copy(o.buf, o.buf[len(o.buf)-maxOutputTail:])
		o.buf = o.buf[:n]
	}
	o.buf = append(o.buf, p...)
}

// flush logs a last line without a newline and how many lines were not
// logged.
func (o *buildOutput) flush() {
	o.mu.Lock()
	defer o.mu.Unlock()
	if len(o.line) > 0 || o.lineLong {
		if o.budgetLocked() > 0 {
			o.logLineLocked()
		} else {
			o.dropped++
			o.line = o.line[:0]
		}
	}
	if o.dropped > 0 {
		o.log.Warn(fmt.Sprintf("build output: %d lines dropped", o.dropped), "dropped", o.dropped, "logged", o.logged,
			"limit", fmt.Sprintf("%d lines, then %d a second, at most %d", logBurst, logPerSecond, maxLoggedLines),
			"bytes", o.total)
	}
}

// tail is the output's last maxOutputTail bytes, from a line's start when
// anything was cut before, and how many bytes came before it.
func (o *buildOutput) tail() (string, int) {
	o.mu.Lock()
	defer o.mu.Unlock()
	b := o.buf
	if len(b) > maxOutputTail {
		b = b[len(b)-maxOutputTail:]
	}
	atLineStart := len(b) == o.total || (len(o.buf) > len(b) && o.buf[len(o.buf)-len(b)-1] == '\n')
	if !atLineStart {
		if i := bytes.IndexByte(b, '\n'); i >= 0 && i < len(b)-1 {
			b = b[i+1:]
		}
	}
	return string(b), o.total - len(b)
}
