package gen

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"os"
	"path"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"golang.org/x/sync/semaphore"
	"golang.org/x/sync/singleflight"

	"github.com/genui-dev/genui/mcpshim"
	"github.com/genui-dev/genui/pagecsp"
)

// UITypeLLM is the UIType of a page written by a model (possibly repaired).
const UITypeLLM = "llm"

// progressInterval throttles streaming progress callbacks.
const progressInterval = 250 * time.Millisecond

// LLM generates UIs with a language model and owns everything around the
// call: prompts, one generation per key at a time (concurrent requests
// share it), a global limit on generations running at once, the budget
// shared by retries (exponential backoff, Retry-After honoured), error
// classification, and the generated -> repaired -> offline chain. It never
// fails for a model problem: the offline UI stands in, with the reason.
type LLM struct {
	cfg     Config
	c       completer
	prompts *Prompts
	offline Generator
	log     *slog.Logger
	sf      singleflight.Group
	sem     *semaphore.Weighted
	secrets []string

	authMu  sync.Mutex
	authErr *Error // set by the first AUTH failure: no more LLM requests

	requests atomic.Int64 // provider requests made
	debugSeq atomic.Int64
}

// New builds the LLM generator for cfg (Provider must be a concrete
// provider; resolve auto with FromEnv first).
func New(cfg Config) (*LLM, error) {
	switch cfg.Provider {
	case "", ProviderAuto, ProviderOffline:
		return nil, fmt.Errorf("gen.New: provider %q is not an LLM provider", cfg.Provider)
	}
	if cfg.Model == "" {
		cfg.Model = DefaultModels[cfg.Provider]
	}
	if cfg.Model == "" && cfg.Provider != ProviderSampling {
		return nil, fmt.Errorf("--llm %s needs a model (--model)", cfg.Provider)
	}
	if cfg.MaxTokens <= 0 {
		cfg.MaxTokens = DefaultMaxTokens
	}
	if cfg.Budget <= 0 {
		cfg.Budget = DefaultBudget
	}
	if cfg.WaitBudget <= 0 {
		cfg.WaitBudget = DefaultWaitBudget
	}
	switch {
	case cfg.Retries == 0:
		cfg.Retries = DefaultRetries
	case cfg.Retries < 0:
		cfg.Retries = 0
	}
	if cfg.BackoffBase <= 0 {
		cfg.BackoffBase = DefaultBackoff
	}
	if cfg.MaxConcurrent <= 0 {
		cfg.MaxConcurrent = DefaultMaxConcurrent
	}
	switch cfg.FirstRead {
	case "":
		cfg.FirstRead = FirstReadBackground
	case FirstReadBackground, FirstReadWait:
	default:
		return nil, fmt.Errorf("generation.firstRead must be %q or %q, not %q", FirstReadBackground, FirstReadWait, cfg.FirstRead)
	}
	switch cfg.Mode {
	case "":
		cfg.Mode = ModeSpec
	case ModeSpec, ModeHTML:
	default:
		return nil, fmt.Errorf("generation.mode must be %q or %q, not %q", ModeSpec, ModeHTML, cfg.Mode)
	}
	for _, p := range cfg.HTMLTools {
		if _, err := path.Match(p, ""); err != nil {
			return nil, fmt.Errorf("generation.htmlTools: %q is not a name or glob: %w", p, err)
		}
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	if cfg.HTTPClient == nil {
		cfg.HTTPClient = &http.Client{}
	}
	if cfg.Sleep == nil {
		cfg.Sleep = sleepCtx
	}
	prompts, err := LoadPrompts(cfg.PromptsDir)
	if err != nil {
		return nil, err
	}
	c, err := newCompleter(cfg)
	if err != nil {
		return nil, err
	}
	l := &LLM{cfg: cfg, c: c, prompts: prompts, offline: NewOfflineWith(cfg.Pages),
		log: cfg.Logger.With("component", "gen", "provider", cfg.Provider),
		sem: semaphore.NewWeighted(int64(cfg.MaxConcurrent))}
	if k := strings.TrimSpace(cfg.APIKey); len(k) >= 4 {
		l.secrets = append(l.secrets, k)
	}
	return l, nil
}

// Name is the provider's name.
func (l *LLM) Name() string { return l.cfg.Provider }

// Model is the configured model ("" for sampling without a hint).
func (l *LLM) Model() string { return l.cfg.Model }

// PromptVersion identifies the prompt templates (part of the cache key).
func (l *LLM) PromptVersion() string { return l.prompts.Version }

// Temperature is the configured temperature (0 when unset).
func (l *LLM) Temperature() float64 {
	if l.cfg.Temperature == nil {
		return 0
	}
	return *l.cfg.Temperature
}

// Mode is what the model writes for tool: ModeHTML when generation.mode
// says html or the tool matches generation.htmlTools, else ModeSpec.
func (l *LLM) Mode(tool string) string {
	if l.cfg.Mode == ModeHTML {
		return ModeHTML
	}
	for _, p := range l.cfg.HTMLTools {
		if ok, _ := path.Match(p, tool); ok || p == tool {
			return ModeHTML
		}
	}
	return ModeSpec
}

// FirstRead is FirstReadBackground or FirstReadWait.
func (l *LLM) FirstRead() string { return l.cfg.FirstRead }

// Budget is the time bound of one generation (wait: a reader blocks on it).
func (l *LLM) Budget(wait bool) time.Duration {
	if wait {
		return l.cfg.WaitBudget
	}
	return l.cfg.Budget
}

// MaxConcurrent is the global limit on generations running at once.
func (l *LLM) MaxConcurrent() int { return l.cfg.MaxConcurrent }

// Requests is the number of provider requests made so far.
func (l *LLM) Requests() int64 { return l.requests.Load() }

// Offline is the generator that stands in while and when the LLM fails.
func (l *LLM) Offline() Generator { return l.offline }

// AuthFailure is the authentication error that stopped LLM requests, or nil.
func (l *LLM) AuthFailure() *Error {
	l.authMu.Lock()
	defer l.authMu.Unlock()
	return l.authErr
}

// Outcome is what a generation started with Start delivers.
type Outcome struct {
	Result Result
	Err    error // only when even the offline fallback failed
}

// Generate implements Generator: it runs (or joins) the generation for
// req.Key and waits for it, or for ctx.
func (l *LLM) Generate(ctx context.Context, req Request) (Result, error) {
	select {
	case o := <-l.Start(context.WithoutCancel(ctx), req, nil):
		return o.Result, o.Err
	case <-ctx.Done():
		return Result{}, ctx.Err()
	}
}

// Start begins the generation of req, or joins the one running for the same
// req.Key, and returns a channel that receives its outcome. The generation
// runs on parent (cancel it to stop every generation) bounded by the budget,
// whatever the callers do. onDone, when set, runs once with the outcome if
// this call started the generation (not when it joined one), before the
// channel receives it.
func (l *LLM) Start(parent context.Context, req Request, onDone func(Outcome)) <-chan Outcome {
	key := req.Key
	if key == "" {
		sum := sha256.Sum256([]byte(req.Tool.Name + "\x00" + strings.Join(req.Refinements, "\x00") + "\x00" + req.CurrentHTML))
		key = hex.EncodeToString(sum[:])
	}
	ch := l.sf.DoChan(key, func() (any, error) {
		res, err := l.run(parent, req)
		o := Outcome{Result: res, Err: err}
		if onDone != nil {
			onDone(o)
		}
		return o, nil
	})
	out := make(chan Outcome, 1)
	go func() { out <- (<-ch).Val.(Outcome) }()
	return out
}

// run is one generation: slot, attempts, chain.
func (l *LLM) run(parent context.Context, req Request) (Result, error) {
	start := time.Now()
	budget := l.Budget(req.Wait)
	ctx, cancel := context.WithTimeout(parent, budget)
	defer cancel()
	log := l.log.With("tool", req.Tool.Name)
	if req.RequestID != "" {
		log = log.With("rid", req.RequestID)
	}
	fallback := l.fallback
	spec := l.Mode(req.Tool.Name) == ModeSpec
	if spec {
		fallback = l.specFallback
	}
	if e := l.AuthFailure(); e != nil {
		return fallback(ctx, req, start, Result{Error: e},
			[]Step{{Stage: StageGenerated, Reason: e.Error() + " (no LLM requests after an authentication failure; fix the key and restart genui)"}})
	}
	if err := l.sem.Acquire(ctx, 1); err != nil {
		e := stopped(ctx, budget, start, fmt.Sprintf("while waiting for a generation slot (limit %d)", l.cfg.MaxConcurrent))
		return l.fallback(ctx, req, start, Result{Error: e}, []Step{{Stage: StageGenerated, Reason: e.Error()}})
	}
	defer l.sem.Release(1)
	if spec {
		return l.runSpec(ctx, log, req, start) // llmspec.go
	}

	user, err := l.prompts.User(req)
	if err != nil {
		e := &Error{Class: ErrInvalidRequest, Message: err.Error()}
		return l.fallback(ctx, req, start, Result{Error: e}, []Step{{Stage: StageGenerated, Reason: e.Error()}})
	}
	res := Result{Provider: l.cfg.Provider, Model: l.cfg.Model}
	msgs := []message{{Role: roleUser, Text: user}}
	var chain []Step
	// One answer, and at most one more: a page the checks reject is sent
	// back once with its problems, within the same budget.
	for round := 1; round <= 2; round++ {
		stage := StageGenerated
		if round == 2 {
			stage = StageReasked
		}
		comp, attempts, gerr := l.attempts(ctx, log, req, l.prompts.System(), msgs, start, round)
		res.Attempts += attempts
		res.InputTokens += comp.InputTokens
		res.OutputTokens += comp.OutputTokens
		if comp.Model != "" {
			res.Model = comp.Model
		}
		if gerr != nil {
			res.Error = gerr
			l.noteAuthFailure(log, gerr)
			return l.fallback(ctx, req, start, res, append(chain, Step{Stage: stage, Reason: gerr.Error()}))
		}
		if comp.Truncated {
			res.Warnings = append(res.Warnings, fmt.Sprintf("the answer stopped at the %d-token limit", l.cfg.MaxTokens))
		}
		page, steps, rep := checkAnswer(comp.Text, req.Tool, stage)
		chain = append(chain, steps...)
		log.Debug("LLM answer validated", "round", round, "ok", rep.OK(), "problems", rep.Problems, "warnings", len(rep.Warnings))
		if rep.OK() {
			res.HTML, res.UIType = l.cfg.Pages.servedLLMPage(page), UITypeLLM
			res.Warnings = append(res.Warnings, rep.Warnings...)
			res.Chain = chain
			res.Duration = time.Since(start)
			msg := "LLM UI generated"
			if len(steps) > 1 {
				msg = "LLM UI repaired"
			}
			log.Info(msg, "round", round, "chain", chainString(chain), "attempts", res.Attempts, "bytes", len(res.HTML),
				"inputTokens", res.InputTokens, "outputTokens", res.OutputTokens, "ms", res.Duration.Milliseconds(), "warnings", len(res.Warnings))
			return res, nil
		}
		res.ValidationErrors = rep.Problems
		if round == 2 || ctx.Err() != nil {
			break
		}
		reask, err := l.prompts.Reask(rep.Findings)
		if err != nil {
			break
		}
		log.Info("LLM page rejected; asking the model once more with the problems", "problems", rep.Problems)
		msgs = append(msgs, message{Role: roleAssistant, Text: comp.Text}, message{Role: roleUser, Text: reask})
	}
	return l.fallback(ctx, req, start, res, chain)
}

// ErrSuperseded is the cause a caller cancels a generation's context with
// (context.WithCancelCause) when a newer generation of the same tool
// replaces it: the generation then says it was superseded.
var ErrSuperseded = errors.New("superseded by a newer generation of this tool")

// stopped is the error of a generation whose context ended: timed out
// after N s (its budget, or the caller's deadline), superseded, or
// cancelled, saying what it was doing (what).
func stopped(ctx context.Context, budget time.Duration, start time.Time, what string) *Error {
	secs := int(time.Since(start).Round(time.Second) / time.Second)
	cause := context.Cause(ctx)
	switch {
	case errors.Is(cause, ErrSuperseded):
		return &Error{Class: ErrCancelled, Message: fmt.Sprintf("superseded after %d s %s: a newer generation of this tool replaced it", secs, what)}
	case errors.Is(ctx.Err(), context.DeadlineExceeded):
		return &Error{Class: ErrTimeout, Message: fmt.Sprintf("timed out after %d s %s (the budget is %s)", secs, what, budget)}
	case cause != nil && !errors.Is(cause, context.Canceled):
		return &Error{Class: ErrCancelled, Message: fmt.Sprintf("cancelled after %d s %s: %v", secs, what, cause)}
	}
	return &Error{Class: ErrCancelled, Message: fmt.Sprintf("cancelled after %d s %s (the caller or genui stopped it)", secs, what)}
}

// noteAuthFailure stops all further LLM requests after the first AUTH
// error, and logs it once.
func (l *LLM) noteAuthFailure(log *slog.Logger, gerr *Error) {
	if gerr.Class != ErrAuth {
		return
	}
	l.authMu.Lock()
	first := l.authErr == nil
	if first {
		l.authErr = gerr
	}
	l.authMu.Unlock()
	if first {
		log.Error("LLM authentication failed: no further LLM requests until genui restarts; offline UIs stand in", "err", gerr.Error())
	}
}

// checkAnswer runs one answer through the chain's checks: as written
// (stage generated or re-asked), else repaired. It returns the page to
// serve (shim inlined), the chain's steps and the last report (OK when the
// page may be served).
func checkAnswer(answer string, tool Tool, stage string) (string, []Step, Report) {
	rep := Check(answer, tool)
	if rep.OK() {
		page := mcpshim.Inject(answer)
		final := Check(page, tool)
		if final.OK() {
			final.Warnings = rep.Warnings
			return page, []Step{{Stage: stage, OK: true}}, final
		}
		rep = final
	}
	steps := []Step{{Stage: stage, Reason: strings.Join(rep.Problems, "; ")}}
	repaired, did := Repair(answer)
	rep2 := Check(repaired, tool)
	if rep2.OK() {
		return repaired, append(steps, Step{Stage: StageRepaired, OK: true, Reason: strings.Join(did, "; ")}), rep2
	}
	reason := strings.Join(rep2.Problems, "; ")
	if len(did) > 0 {
		reason = "after " + strings.Join(did, ", ") + ": " + reason
	}
	return "", append(steps, Step{Stage: StageRepaired, Reason: reason}), rep2
}

// servedLLMPage is a model-written page as genui serves it: genui's guard
// and bridge first in the document, ahead of anything the model wrote
// (mcpshim.InjectGuarded), and the CSP meta tag for its scripts.
func (o PageOptions) servedLLMPage(page string) string {
	return pagecsp.Apply(mcpshim.Options{ReadableSources: o.ReadableSources}.InjectGuarded(page))
}

func chainString(chain []Step) string {
	var parts []string
	for _, s := range chain {
		mark := "✗"
		if s.OK {
			mark = "✓"
		}
		parts = append(parts, s.Stage+" "+mark)
	}
	return strings.Join(parts, " -> ")
}

// fallback completes res when the model gave no usable page: a tool whose
// previous LLM page is known (a refinement or regeneration of a working
// page) keeps it and says so; otherwise the offline UI stands in. It logs
// one line naming the reason (and the validation errors when the page was
// rejected).
func (l *LLM) fallback(ctx context.Context, req Request, start time.Time, res Result, chain []Step) (Result, error) {
	reason := chain[len(chain)-1].Reason
	log := l.log.With("tool", req.Tool.Name)
	if req.RequestID != "" {
		log = log.With("rid", req.RequestID)
	}
	attrs := []any{"reason", reason, "validationErrors", res.ValidationErrors, "attempts", res.Attempts}
	if res.Error != nil {
		attrs = append(attrs, "class", res.Error.Class)
	}
	if res.Provider == "" {
		res.Provider = l.cfg.Provider
	}
	if prev := req.PreviousHTML; prev != "" {
		log.Warn("LLM UI kept the previous LLM page", attrs...)
		res.HTML, res.UIType = l.cfg.Pages.servedLLMPage(prev), UITypeLLM
		note := "the new page was not usable (" + reason + "); the previous LLM page stays"
		res.Warnings = append(res.Warnings, note)
		res.Chain = append(chain, Step{Stage: StagePrevious, OK: true, Reason: reason})
		res.FallbackReason = note
		res.Duration = time.Since(start)
		return res, nil
	}
	log.Warn("LLM UI fell back to the offline UI", attrs...)
	off, err := l.offline.Generate(context.WithoutCancel(ctx), Request{Tool: req.Tool, Refinements: req.Refinements})
	if err != nil {
		return res, fmt.Errorf("LLM failed (%s) and the offline generator too: %w", reason, err)
	}
	res.HTML, res.UIType = off.HTML, off.UIType
	res.Warnings = append(res.Warnings, off.Warnings...)
	res.Chain = append(chain, Step{Stage: StageOffline, OK: true, Reason: reason})
	res.FallbackReason = reason
	res.Duration = time.Since(start)
	return res, nil
}

// attempts asks the model, retrying retryable failures within ctx.
func (l *LLM) attempts(ctx context.Context, log *slog.Logger, req Request, system string, msgs []message, start time.Time, round int) (Completion, int, *Error) {
	seq := l.debugSeq.Add(1)
	if round == 1 {
		l.debugWrite(req, seq, 0, "prompt", "SYSTEM:\n"+system+"\n\nUSER:\n"+msgs[0].Text)
	} else {
		l.debugWrite(req, seq, 0, "reask", "USER:\n"+msgs[len(msgs)-1].Text)
	}
	for attempt := 1; ; attempt++ {
		onText := func(int) {}
		if req.OnProgress != nil {
			onText = throttle(progressInterval, func(n int) {
				req.OnProgress(Progress{Tool: req.Tool.Name, Bytes: n, Elapsed: time.Since(start), Attempt: attempt})
			})
		}
		l.requests.Add(1)
		log.Debug("LLM request", "provider", l.cfg.Provider, "model", l.cfg.Model, "attempt", attempt)
		comp, err := l.c.complete(ctx, system, msgs, req, onText)
		if err == nil {
			log.Debug("LLM answer", "attempt", attempt, "bytes", len(comp.Text), "inputTokens", comp.InputTokens,
				"outputTokens", comp.OutputTokens, "truncated", comp.Truncated, "ms", time.Since(start).Milliseconds())
			l.debugWrite(req, seq, attempt, "response", comp.Text)
			if req.OnProgress != nil {
				req.OnProgress(Progress{Tool: req.Tool.Name, Bytes: len(comp.Text), Elapsed: time.Since(start), Attempt: attempt})
			}
			return comp, attempt, nil
		}
		ge := classify(err, l.redact)
		if ctx.Err() != nil && ge.Class != ErrAuth {
			ge = stopped(ctx, l.Budget(req.Wait), start, fmt.Sprintf("no answer (%d attempts)", attempt))
		}
		l.debugWrite(req, seq, attempt, "error", ge.Error())
		if !ge.Retryable || attempt > l.cfg.Retries {
			return Completion{}, attempt, ge
		}
		delay := l.cfg.BackoffBase << (attempt - 1)
		if ge.RetryAfter > 0 {
			delay = ge.RetryAfter
		}
		if dl, ok := ctx.Deadline(); ok && time.Until(dl) < delay {
			ge.Message += fmt.Sprintf(" (a retry after %s would pass the budget)", delay.Round(time.Millisecond))
			return Completion{}, attempt, ge
		}
		log.Warn("LLM request failed; retrying", "class", ge.Class, "status", ge.Status, "attempt", attempt,
			"delay", delay.String(), "err", ge.Message)
		if err := l.cfg.Sleep(ctx, delay); err != nil {
			return Completion{}, attempt, stopped(ctx, l.Budget(req.Wait), start, fmt.Sprintf("while waiting to retry after %s", ge.Class))
		}
	}
}

var reSecretLike = lazyRegexp(`\b(?:sk-(?:ant-)?[A-Za-z0-9_\-]{12,}|AIza[0-9A-Za-z_\-]{20,}|sk-or-[A-Za-z0-9_\-]{12,})`)

// redact removes the configured API key and anything shaped like a
// provider key from s.
func (l *LLM) redact(s string) string {
	for _, k := range l.secrets {
		s = strings.ReplaceAll(s, k, "[REDACTED]")
	}
	return reSecretLike().ReplaceAllString(s, "[REDACTED]")
}

// Redact is redact for callers that log or store provider text.
func (l *LLM) Redact(s string) string { return l.redact(s) }

var reFileUnsafe = lazyRegexp(`[^A-Za-z0-9_.-]+`)

// debugWrite writes one prompt, answer or error (redacted) under DebugDir.
func (l *LLM) debugWrite(req Request, seq int64, attempt int, kind, text string) {
	if l.cfg.DebugDir == "" {
		return
	}
	if err := os.MkdirAll(l.cfg.DebugDir, 0o700); err != nil {
		l.log.Warn("debug dir", "err", err)
		return
	}
	name := fmt.Sprintf("%s-%04d-%s", time.Now().UTC().Format("20060102T150405"), seq, reFileUnsafe().ReplaceAllString(req.Tool.Name, "_"))
	if attempt > 0 {
		name += "-" + strconv.Itoa(attempt)
	}
	name += "-" + kind + ".txt"
	if err := os.WriteFile(filepath.Join(l.cfg.DebugDir, name), []byte(l.redact(text)), 0o600); err != nil {
		l.log.Warn("writing debug file", "err", err)
	}
}

func sleepCtx(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}
