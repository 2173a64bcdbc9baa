package engine

import (
	"context"
	"fmt"
	"time"

	"github.com/genui-dev/genui/engine/cache"
	"github.com/genui-dev/genui/engine/gen"
	"github.com/genui-dev/genui/viewdefs"
)

// ReadUI returns the tool's UI: from the cache, or generated now (one
// generation per key at a time, a global concurrency limit, a time bound;
// a failed generation falls back to the emergency page, never to nothing).
func (e *Engine) ReadUI(ctx context.Context, name string) (UI, error) {
	t, ok := e.Tool(name)
	if !ok {
		return UI{}, e.unknownTool(name)
	}
	key := e.UIKey(t)
	if !e.opts.NoCache {
		if ent, ok := e.cache.Get(key); ok {
			return UI{Tool: name, HTML: ent.HTML, Key: key, Meta: ent.Meta, FromCache: true}, nil
		}
	}
	rid := RequestID(ctx)
	// The generation runs on its own bounded context (its result is cached
	// for every reader); this caller stops waiting when its ctx ends.
	ch := e.sf.DoChan(string(key), func() (any, error) {
		return e.generate(t, key, rid)
	})
	select {
	case r := <-ch:
		if r.Err != nil {
			return UI{}, r.Err
		}
		return r.Val.(UI), nil
	case <-ctx.Done():
		return UI{}, fmt.Errorf("UI for %s: %w", name, ctx.Err())
	}
}

func (e *Engine) generate(t *Tool, key cache.Key, rid string) (UI, error) {
	log := e.log.With("rid", rid, "tool", t.Name)
	ctx, cancel := context.WithTimeout(context.Background(), e.opts.GenerationTimeout)
	defer cancel()
	if err := e.sem.Acquire(ctx, 1); err != nil {
		return UI{}, fmt.Errorf("generation queue full for %s: %w", t.Name, err)
	}
	defer e.sem.Release(1)
	e.genMu.Lock()
	e.generating[t.Name]++
	e.genMu.Unlock()
	defer func() {
		e.genMu.Lock()
		if e.generating[t.Name]--; e.generating[t.Name] <= 0 {
			delete(e.generating, t.Name)
		}
		e.genMu.Unlock()
	}()
	e.publish(EventGenerationStarted, t.Name, &GenerationStarted{RequestID: rid, Generator: e.gen.Name()})
	start := time.Now()
	var hist []string
	for _, r := range e.refine.History(t.Name) {
		hist = append(hist, r.Feedback)
	}
	res, err := e.gen.Generate(ctx, gen.Request{Tool: t.Info, Refinements: hist})
	meta := cache.Meta{GeneratedAt: start, Duration: time.Since(start), Provider: res.Provider,
		Model: res.Model, UIType: res.UIType, Warnings: res.Warnings, RequestID: rid, CacheVersion: 1}
	if err == nil {
		if problems := gen.Validate(res.HTML); len(problems) > 0 {
			err = fmt.Errorf("generated HTML failed validation: %v", problems)
		}
	}
	if err != nil {
		log.Error("UI generation failed; serving the emergency page", "err", err)
		html, eerr := viewdefs.Emergency(viewdefs.ToolData{Name: t.Name, Title: t.Info.Title,
			Description: t.Info.Description, InputSchema: t.Info.InputSchema, OutputSchema: t.Info.OutputSchema}, err.Error())
		if eerr != nil {
			return UI{}, fmt.Errorf("generate UI for %s: %w (emergency page: %v)", t.Name, err, eerr)
		}
		e.publish(EventGenerationFailed, t.Name, &GenerationFailed{Error: err.Error(), RequestID: rid})
		meta.UIType, meta.FallbackReason = "emergency", err.Error()
		// Not cached: the next read tries again.
		return UI{Tool: t.Name, HTML: injectShim(html), Key: key, Meta: meta}, nil
	}
	ui := UI{Tool: t.Name, HTML: res.HTML, Key: key, Meta: meta}
	if perr := e.cache.Put(cache.Entry{Key: key, Tool: t.Name, HTML: res.HTML, Meta: meta}); perr != nil {
		log.Warn("UI not cached", "err", perr)
	}
	log.Info("UI generated", "uiType", meta.UIType, "ms", meta.Duration.Milliseconds(), "bytes", len(res.HTML),
		"warnings", len(meta.Warnings))
	e.publish(EventGenerationFinished, t.Name, &GenerationFinished{UIType: meta.UIType, Generator: meta.Provider,
		Duration: meta.Duration, CacheKey: string(key), FallbackReason: meta.FallbackReason, Warnings: meta.Warnings,
		RequestID: rid})
	return ui, nil
}
