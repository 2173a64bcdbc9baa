package engine

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/genui-dev/genui/engine/contract"
	"github.com/genui-dev/genui/engine/registry"
	"github.com/genui-dev/genui/engine/toolchanges"
	"github.com/genui-dev/genui/engine/upstream"
	"github.com/genui-dev/genui/engine/watch"
)

// WatchOptions make the engine restart a stdio upstream when its files
// change (--watch, upstream.watch).
type WatchOptions struct {
	// Paths are files, folders or globs (relative to Root); none: no watch.
	Paths []string
	// Ignore are globs left out besides watch.DefaultIgnore (DIR and the
	// checks folder are always left out).
	Ignore []string
	// Debounce is the quiet time before a restart (default 300 ms).
	Debounce time.Duration
	// Build, when set, runs (through the shell, in Root) before each
	// restart; a failing build keeps the old upstream. BuildTimeout bounds
	// it (default 5 min).
	Build        string
	BuildTimeout time.Duration
	// Root is what relative paths are relative to (default the working
	// directory).
	Root string
}

// watching is the engine's watch on the upstream's files: the state
// State reports, and the restart it runs for a change.
type watching struct {
	mu sync.Mutex
	st contract.WatchState
}

func (w *watching) state() contract.WatchState {
	w.mu.Lock()
	defer w.mu.Unlock()
	st := w.st
	st.Paths, st.Ignore = append([]string(nil), st.Paths...), append([]string(nil), st.Ignore...)
	return st
}

func (w *watching) update(f func(st *contract.WatchState)) {
	w.mu.Lock()
	f(&w.st)
	w.mu.Unlock()
}

// maxRestartFiles bounds the file names one restart event lists.
const maxRestartFiles = 20

// runWatch watches the upstream's files until ctx ends.
func (e *Engine) runWatch(ctx context.Context) {
	o := e.opts.Watch
	build := e.shownBuild()
	e.watch.update(func(st *contract.WatchState) {
		*st = contract.WatchState{Enabled: true, Paths: o.Paths, Ignore: o.Ignore, Debounce: o.Debounce, Build: build, Last: st.Last}
	})
	fail := func(msg string) {
		e.log.Error("not watching the upstream's files", "reason", msg)
		e.watch.update(func(st *contract.WatchState) { st.Enabled, st.Error = false, msg })
		e.hub.publish(contract.EventUpstreamRestart, "", &contract.UpstreamRestart{Phase: contract.RestartNotWatching, Error: msg})
	}
	switch tr := e.relay.up.Transport(); tr {
	case upstream.TransportStdio, upstream.TransportInProcess:
	default:
		fail(fmt.Sprintf("--watch restarts a stdio upstream; this one is %s %s (genui does not run it)", tr, e.opts.Upstream.URL))
		return
	}
	root := o.Root
	if root == "" {
		root = "."
	}
	ignore := append([]string(nil), o.Ignore...)
	for _, dir := range []string{e.opts.Dir, e.checks.Dir()} {
		if rel, err := relTo(root, dir); err == nil && rel != "." && !strings.HasPrefix(rel, "../") {
			ignore = append(ignore, rel)
		}
	}
	w, err := watch.New(watch.Options{Root: root, Paths: o.Paths, Ignore: ignore, Debounce: o.Debounce, Logger: e.opts.Logger})
	if err != nil {
		fail(err.Error())
		return
	}
	e.log.Info("watching the upstream's files", "paths", o.Paths, "ignore", ignore, "build", o.Build)
	if err := w.Run(ctx, func(ctx context.Context, files []string) { e.restartForChange(ctx, root, files) }); err != nil {
		fail(err.Error())
	}
}

// shownBuild is the watch's build command as every surface shows it
// (/state, /variables, events, the TUI): a ${env:VAR} value hidden. The
// command that runs is e.opts.Watch.Build itself.
func (e *Engine) shownBuild() string { return e.hideSecrets(e.opts.Watch.Build) }

// hideSecrets is s with the configuration's ${env:VAR} values hidden
// (config.Secrets.Redact, through the upstream's Redact).
func (e *Engine) hideSecrets(s string) string {
	if hide := e.opts.Upstream.Redact; hide != nil {
		return hide(s)
	}
	return s
}

// buildAtStart runs the watch's build step (when there is one, for a
// stdio upstream) before the upstream first starts; a failed build is
// reported (its output in the event and in State's watch) and the
// upstream starts anyway, from whatever an earlier build left.
func (e *Engine) buildAtStart(ctx context.Context) {
	o := e.opts.Watch
	if o.Build == "" || e.relay.up.Transport() != upstream.TransportStdio {
		return
	}
	root := o.Root
	if root == "" {
		root = "."
	}
	e.watch.update(func(st *contract.WatchState) {
		*st = contract.WatchState{Enabled: true, Paths: o.Paths, Ignore: o.Ignore, Debounce: o.Debounce, Build: e.shownBuild(),
			Phase: contract.RestartBuilding}
	})
	e.publishRestart(contract.UpstreamRestart{Phase: contract.RestartBuilding, Build: e.shownBuild(), AtStart: true})
	e.log.Info("building before the upstream starts", "build", o.Build)
	res := watch.Build(ctx, o.Build, root, o.BuildTimeout, e.opts.Logger)
	r := contract.UpstreamRestart{Phase: contract.RestartBuilt, Build: e.shownBuild(), AtStart: true, BuildDuration: res.Duration,
		Duration: res.Duration}
	if res.Err != nil {
		out := res.Output
		if res.Cut > 0 {
			out = fmt.Sprintf("(%d bytes before this; the log has the first lines)\n", res.Cut) + out
		}
		r.Phase, r.Output, r.ExitCode, r.Error = contract.RestartBuildFailed, e.hideSecrets(out), res.ExitCode, e.hideSecrets(res.Err.Error())
		e.log.Warn("the build before the upstream's start failed; starting it anyway", "err", res.Err)
	}
	e.watch.update(func(st *contract.WatchState) {
		st.Phase = ""
		last := r
		st.Last = &last
	})
	e.publishRestart(r)
}

// relTo is path relative to root, with forward slashes.
func relTo(root, path string) (string, error) {
	ar, err := filepath.Abs(root)
	if err != nil {
		return "", err
	}
	ap, err := filepath.Abs(path)
	if err != nil {
		return "", err
	}
	r, err := filepath.Rel(ar, ap)
	return filepath.ToSlash(r), err
}

// restartForChange is one restart: build (when configured), start the new
// upstream (the old one serves until it answers), list the tools again,
// regenerate the UIs of the tools that changed, and report each step as an
// EventUpstreamRestart (hosts hear tools/list_changed from the refresh).
func (e *Engine) restartForChange(ctx context.Context, root string, files []string) {
	start := time.Now()
	ev := contract.UpstreamRestart{Phase: contract.RestartChanged, Files: files}
	if len(files) > maxRestartFiles {
		ev.Files, ev.MoreFiles = files[:maxRestartFiles], len(files)-maxRestartFiles
	}
	e.publishRestart(ev)
	finish := func(r contract.UpstreamRestart) {
		r.Files, r.MoreFiles = ev.Files, ev.MoreFiles
		r.Duration = time.Since(start)
		r.Generation = e.relay.up.Generation()
		e.watch.update(func(st *contract.WatchState) {
			st.Phase = ""
			if r.Phase == contract.RestartDone {
				st.Restarts++
			}
			last := r
			st.Last = &last
		})
		e.publishRestart(r)
		if r.Error != "" {
			e.log.Warn("upstream not restarted", "phase", r.Phase, "err", r.Error)
		} else {
			e.log.Info("upstream restarted for a change", "files", ev.Files, "generation", r.Generation, "ms", r.Duration.Milliseconds())
		}
	}
	var buildTook time.Duration
	if b := e.opts.Watch.Build; b != "" {
		e.setWatchPhase(contract.RestartBuilding)
		e.publishRestart(contract.UpstreamRestart{Phase: contract.RestartBuilding, Build: e.shownBuild(), Files: ev.Files, MoreFiles: ev.MoreFiles})
		res := watch.Build(ctx, b, root, e.opts.Watch.BuildTimeout, e.opts.Logger)
		buildTook = res.Duration
		if res.Err != nil {
			out := res.Output
			if res.Cut > 0 {
				out = fmt.Sprintf("(%d bytes before this; the log has the first lines)\n", res.Cut) + out
			}
			finish(contract.UpstreamRestart{Phase: contract.RestartBuildFailed, Build: e.shownBuild(), Output: e.hideSecrets(out), ExitCode: res.ExitCode,
				Error: e.hideSecrets(res.Err.Error()), BuildDuration: buildTook})
			return
		}
	}
	e.setWatchPhase(contract.RestartRestarting)
	e.publishRestart(contract.UpstreamRestart{Phase: contract.RestartRestarting, Files: ev.Files, MoreFiles: ev.MoreFiles,
		BuildDuration: buildTook})
	before := e.tools.List()
	rctx, cancel := context.WithTimeout(ctx, 60*time.Second)
	defer cancel()
	if err := e.relay.up.Restart(rctx, "watched files changed: "+fileList(ev.Files, ev.MoreFiles)); err != nil {
		finish(contract.UpstreamRestart{Phase: contract.RestartFailed, Error: err.Error(), BuildDuration: buildTook})
		return
	}
	r := contract.UpstreamRestart{Phase: contract.RestartDone, BuildDuration: buildTook}
	if _, err := e.RefreshTools(rctx); err != nil {
		r.Error = "the new upstream runs, but its tools/list failed: " + err.Error()
	}
	diff := toolchanges.Diff(before, e.tools.List())
	r.Diff, r.Changes = &diff, diff.Changes
	r.Regenerated = e.regenerateChanged(rctx, before, diff.Changed)
	finish(r)
}

func (e *Engine) publishRestart(r contract.UpstreamRestart) {
	e.hub.publish(contract.EventUpstreamRestart, "", &r)
}

func (e *Engine) setWatchPhase(p string) {
	e.watch.update(func(st *contract.WatchState) { st.Phase = p })
}

func fileList(files []string, more int) string {
	s := strings.Join(files, ", ")
	if more > 0 {
		s += fmt.Sprintf(" and %d more", more)
	}
	return s
}

// regenerateChanged generates again the UIs of changed tools that had one
// (their refinements apply to the new definition); tools never opened
// get theirs when first read. It returns the tools regenerated.
func (e *Engine) regenerateChanged(ctx context.Context, before []*registry.Tool, changed []string) []string {
	old := map[string]*registry.Tool{}
	for _, t := range before {
		old[t.Name] = t
	}
	var done []string
	for _, name := range changed {
		prev, t := old[name], (*registry.Tool)(nil)
		if cur, ok := e.tools.Get(name); ok {
			t = cur
		}
		if prev == nil || t == nil || !t.HasGeneratedUI() || !prev.HasGeneratedUI() {
			continue
		}
		if _, ok := e.ui.cache.Peek(e.ui.key(prev)); !ok {
			continue
		}
		ui, err := e.ui.read(ctx, t)
		if err != nil {
			e.log.Warn("regenerating a changed tool's UI failed", "tool", name, "err", err)
			continue
		}
		done = append(done, name)
		e.hub.publish(contract.EventUIUpdated, name, &contract.UIUpdated{Reason: "tool-changed", CacheKey: string(ui.Key), UIType: ui.Meta.UIType})
	}
	return done
}
