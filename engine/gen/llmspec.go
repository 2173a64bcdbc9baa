package gen

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"strings"
	"time"

	template "github.com/DataDog/datadog-agent/pkg/template/text"

	"github.com/genui-dev/genui/pagepack"
	"github.com/genui-dev/genui/viewspec"
)

// The spec mode (generation.mode "spec", the default): the model writes a
// view specification (viewspec), never a page. The prompt gives the tool,
// its schemas, one real result (cut to a budget) and the spec the offline
// generator proposes, and asks for a spec, or, for a refinement of a spec
// page, a JSON Merge Patch of its spec. The answer must be one JSON object
// (a Markdown code fence around it is tolerated, nothing else) that the
// schema accepts; one that is not is sent back once with the problems.
// The page served is the offline generator's page drawing the model's spec:
// genui's own renderers, which show the spec's strings as text. No
// model-written markup or script reaches a page in this mode. When the
// model gives no usable spec, the previous spec page (re-drawn from its
// spec) or the offline UI stands in, with the reason.

// UITypeLLMSpec is the UIType of a page whose view specification a model
// wrote: the offline generator's page drawing that spec.
const UITypeLLMSpec = "llm-spec"

// IsLLMPage reports whether uiType is a model's UI (either mode): the
// engine caches it as the tool's LLM UI and a refinement starts from it.
func IsLLMPage(uiType string) bool { return uiType == UITypeLLM || uiType == UITypeLLMSpec }

// Bounds of the spec mode's prompts (characters): the real result is cut
// shorter than in the html mode (a spec needs the data's shape, not its
// rows), and a rejected answer goes back cut.
const (
	specLimitStructured = 2000
	specLimitText       = 1500
	specLimitRejected   = 2000
	specMaxProblems     = 20
	specLimitProblem    = 300
)

// specPrompts are the spec mode's templates.
type specPrompts struct {
	system, generate, refine, reask *template.Template
	systemText                      string
}

// schemaText is the spec's JSON Schema as the system prompt carries it:
// compact, without the keys that say what the prompt says around it
// ($schema, $id, title and the document's description).
func schemaText() string {
	var doc map[string]json.RawMessage
	if err := json.Unmarshal(viewspec.Schema(), &doc); err != nil {
		return string(viewspec.Schema())
	}
	for _, k := range []string{"$schema", "$id", "title", "description"} {
		delete(doc, k)
	}
	b, err := json.Marshal(doc) // compact; keys sorted
	if err != nil {
		return string(viewspec.Schema())
	}
	return string(b)
}

func (sp *specPrompts) set(name string, t *template.Template) error {
	switch name {
	case "spec_system.tmpl":
		schema := schemaText()
		var b strings.Builder
		if err := t.Execute(&b, map[string]any{"Schema": schema}); err != nil {
			return err
		}
		if !strings.Contains(b.String(), schema) {
			return fmt.Errorf("the spec mode's system prompt must carry the spec's schema (write {{.Schema}})")
		}
		sp.system, sp.systemText = t, b.String()
	case "spec_generate.tmpl":
		sp.generate = t
	case "spec_refine.tmpl":
		sp.refine = t
	case "spec_reask.tmpl":
		sp.reask = t
	default:
		return fmt.Errorf("unknown prompt template")
	}
	return nil
}

// SpecSystem is the spec mode's fixed system prompt.
func (p *Prompts) SpecSystem() string { return p.spec.systemText }

// SpecUser renders the spec mode's user message: with current (the spec of
// the tool's current spec page, nil when there is none) and refinements,
// the refine template asks for a merge patch of current for the latest
// refinement; else the generate template asks for a whole spec, starting
// from proposed.
func (p *Prompts) SpecUser(req Request, proposed viewspec.Spec, current *viewspec.Spec) (string, error) {
	data := map[string]any{
		"ToolJSON": toolJSONIndent(req.Tool, ""),
		"Example":  exampleTextWithin(req.Example, req.ExampleArgs, req.ExampleDuration, specLimitStructured, specLimitText, true),
		"Known":    knownResults(req.Tool),
	}
	var refs []string
	for _, r := range req.Refinements {
		refs = append(refs, oneLine(clip(r, limitFeedback)))
	}
	t := p.spec.generate
	if current != nil && len(refs) > 0 {
		t = p.spec.refine
		data["Current"] = specPromptJSON(*current)
		data["History"] = refs[:len(refs)-1]
		data["Feedback"] = refs[len(refs)-1]
	} else {
		data["Proposed"] = specPromptJSON(proposed)
		data["Refinements"] = refs
	}
	var b strings.Builder
	if err := t.Execute(&b, data); err != nil {
		return "", fmt.Errorf("render prompt %s: %w", t.Name(), err)
	}
	return b.String(), nil
}

// SpecReask renders the message that sends an unusable answer back with
// its problems.
func (p *Prompts) SpecReask(why string, problems []string, patch bool) (string, error) {
	var list []string
	for i, pr := range problems {
		if i == specMaxProblems {
			list = append(list, fmt.Sprintf("(%d more)", len(problems)-i))
			break
		}
		list = append(list, neutralizeMarkers(clip(pr, specLimitProblem)))
	}
	want := "the whole spec as one JSON object"
	if patch {
		want = "the merge patch as one JSON object"
	}
	var b strings.Builder
	if err := p.spec.reask.Execute(&b, map[string]any{"Why": why, "Problems": list, "Want": want}); err != nil {
		return "", fmt.Errorf("render prompt %s: %w", p.spec.reask.Name(), err)
	}
	return b.String(), nil
}

// specPromptJSON is a spec as the prompt shows it: indented JSON with <, >
// and & escaped, so no string in it can close a marker.
func specPromptJSON(s viewspec.Spec) string {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(true)
	enc.SetIndent("", " ")
	_ = enc.Encode(s)
	return strings.TrimSpace(buf.String())
}

// specAnswerJSON takes one JSON object out of a model's answer: the whole
// answer, or the whole answer inside one Markdown code fence. Anything else
// (prose around it, an HTML page, two values) is not an answer of the spec
// mode: the error says what it is instead.
func specAnswerJSON(answer string) ([]byte, error) {
	s := strings.TrimSpace(answer)
	if strings.HasPrefix(s, "```") {
		nl := strings.IndexByte(s, '\n')
		if nl < 0 || !strings.HasSuffix(s, "```") || len(s) < nl+4 {
			return nil, fmt.Errorf("the answer opens a code fence it does not close")
		}
		if lang := strings.TrimSpace(s[3:nl]); lang != "" && !strings.EqualFold(lang, "json") {
			return nil, fmt.Errorf("the answer is a %q code block, not JSON", clip(lang, 20))
		}
		s = strings.TrimSpace(s[nl+1 : len(s)-3])
	}
	if s == "" {
		return nil, fmt.Errorf("the answer is empty")
	}
	if s[0] != '{' {
		return nil, fmt.Errorf("the answer is not one JSON object: it starts with %q", clip(strings.Join(strings.Fields(s[:min(len(s), 80)]), " "), 40))
	}
	dec := json.NewDecoder(strings.NewReader(s))
	var v map[string]any
	if err := dec.Decode(&v); err != nil {
		return nil, fmt.Errorf("the answer is not one JSON object: %v", err)
	}
	if dec.More() || dec.InputOffset() != int64(len(s)) {
		return nil, fmt.Errorf("the answer has more after its JSON object")
	}
	return []byte(s), nil
}

// readSpecAnswer turns an answer into the spec to draw: the whole spec, or
// base with the answer as a merge patch when patch is set. Otherwise it
// says why not (why) and lists the problems.
func readSpecAnswer(answer string, base viewspec.Spec, patch bool) (viewspec.Spec, string, []string) {
	raw, err := specAnswerJSON(answer)
	if err != nil {
		return viewspec.Spec{}, "it is not a spec", []string{err.Error()}
	}
	var s viewspec.Spec
	var errs []error
	if patch {
		s, errs = viewspec.Apply(base, raw)
	} else {
		s, errs = viewspec.Validate(raw)
	}
	if len(errs) > 0 {
		out := make([]string, 0, len(errs))
		for _, e := range errs {
			out = append(out, e.Error())
		}
		return viewspec.Spec{}, "it does not follow the spec's schema", out
	}
	return s, "", nil
}

// runSpec is one generation in the spec mode (the slot is held).
func (l *LLM) runSpec(ctx context.Context, log *slog.Logger, req Request, start time.Time) (Result, error) {
	log = log.With("mode", ModeSpec)
	proposed, _, _ := SpecFor(req.Tool, req.Example, req.Refinements)
	var current *viewspec.Spec
	var earlier []viewspec.Outcome
	if len(req.Refinements) > 0 {
		if s, ok := specOfPage(req.CurrentHTML); ok {
			current, earlier = &s, outcomesOfPage(req.CurrentHTML)
		}
	}
	patch := current != nil
	base := proposed
	if patch {
		base = *current
	}
	user, err := l.prompts.SpecUser(req, proposed, current)
	if err != nil {
		e := &Error{Class: ErrInvalidRequest, Message: err.Error()}
		return l.specFallback(ctx, req, start, Result{Error: e}, []Step{{Stage: StageGenerated, Reason: e.Error()}})
	}
	system := l.prompts.SpecSystem()
	res := Result{Provider: l.cfg.Provider, Model: l.cfg.Model}
	msgs := []message{{Role: roleUser, Text: user}}
	var chain []Step
	for round := 1; round <= 2; round++ {
		stage := StageGenerated
		if round == 2 {
			stage = StageReasked
		}
		comp, attempts, gerr := l.attempts(ctx, log, req, system, msgs, start, round)
		res.Attempts += attempts
		res.InputTokens += comp.InputTokens
		res.OutputTokens += comp.OutputTokens
		if comp.Model != "" {
			res.Model = comp.Model
		}
		if gerr != nil {
			res.Error = gerr
			l.noteAuthFailure(log, gerr)
			return l.specFallback(ctx, req, start, res, append(chain, Step{Stage: stage, Reason: gerr.Error()}))
		}
		if comp.Truncated {
			res.Warnings = append(res.Warnings, fmt.Sprintf("the answer stopped at the %d-token limit", l.cfg.MaxTokens))
		}
		spec, why, problems := readSpecAnswer(comp.Text, base, patch)
		log.Debug("LLM spec validated", "round", round, "ok", why == "", "problems", problems)
		if why == "" {
			outcomes := specOutcomes(req.Refinements, earlier, base, spec, patch)
			page, err := l.cfg.Pages.RenderSpec(req.Tool, spec, outcomes)
			if err != nil {
				return res, fmt.Errorf("drawing the model's spec: %w", err)
			}
			chain = append(chain, Step{Stage: stage, OK: true})
			res.HTML, res.UIType, res.Spec, res.Outcomes = page, UITypeLLMSpec, &spec, outcomes
			res.Chain = chain
			res.Duration = time.Since(start)
			log.Info("LLM spec UI generated", "round", round, "chain", chainString(chain), "patch", patch, "attempts", res.Attempts,
				"specBytes", len(spec.JSON()), "inputTokens", res.InputTokens, "outputTokens", res.OutputTokens,
				"ms", res.Duration.Milliseconds(), "warnings", len(res.Warnings))
			return res, nil
		}
		reason := why + ": " + strings.Join(problems, "; ")
		chain = append(chain, Step{Stage: stage, Reason: clip(reason, 1000)})
		res.ValidationErrors = problems
		if round == 2 || ctx.Err() != nil {
			break
		}
		reask, err := l.prompts.SpecReask(why, problems, patch)
		if err != nil {
			break
		}
		log.Info("LLM spec rejected; asking the model once more with the problems", "why", why, "problems", problems)
		msgs = append(msgs, message{Role: roleAssistant, Text: clip(comp.Text, specLimitRejected)}, message{Role: roleUser, Text: reask})
	}
	return l.specFallback(ctx, req, start, res, chain)
}

// specFallback completes res when the model gave no usable spec: the
// tool's previous spec page, drawn again from its spec (never a page as
// it was stored: an earlier html-mode page never stands in here), else the
// offline UI, with the reason.
func (l *LLM) specFallback(ctx context.Context, req Request, start time.Time, res Result, chain []Step) (Result, error) {
	reason := chain[len(chain)-1].Reason
	if prev, ok := specOfPage(req.PreviousHTML); ok {
		if page, err := l.cfg.Pages.RenderSpec(req.Tool, prev, outcomesOfPage(req.PreviousHTML)); err == nil {
			log := l.log.With("tool", req.Tool.Name, "mode", ModeSpec)
			if req.RequestID != "" {
				log = log.With("rid", req.RequestID)
			}
			log.Warn("LLM UI kept the previous spec", "reason", reason, "validationErrors", res.ValidationErrors, "attempts", res.Attempts)
			if res.Provider == "" {
				res.Provider = l.cfg.Provider
			}
			note := "the model's answer was not usable (" + reason + "); the previous spec stays"
			res.HTML, res.UIType, res.Spec = page, UITypeLLMSpec, &prev
			res.Warnings = append(res.Warnings, note)
			res.Chain = append(chain, Step{Stage: StagePrevious, OK: true, Reason: reason})
			res.FallbackReason = note
			res.Duration = time.Since(start)
			return res, nil
		}
	}
	req.PreviousHTML = ""
	return l.fallback(ctx, req, start, res, chain)
}

// specOutcomes says what became of the refinements on the model's spec:
// for a patch, the earlier outcomes (as the current page said them) and
// the latest refinement's, applied with the changes or not applied when
// the patch changes nothing; for a whole spec written for several
// refinements at once, each is answered with the changes the spec makes
// to the plain proposal, which the model wrote for all of them together.
func specOutcomes(refinements []string, earlier []viewspec.Outcome, base, spec viewspec.Spec, patch bool) []viewspec.Outcome {
	if len(refinements) == 0 {
		return nil
	}
	changes := specChanges(base, spec)
	answer := func(r, together string) viewspec.Outcome {
		if len(changes) == 0 {
			return viewspec.Outcome{Refinement: r, Status: viewspec.NotApplied, Reason: "the model's answer changes nothing in the spec"}
		}
		return viewspec.Outcome{Refinement: r, Status: viewspec.Applied, Changes: changes, Reason: together}
	}
	if patch {
		last := refinements[len(refinements)-1]
		var out []viewspec.Outcome
		for _, o := range earlier {
			if len(out) < len(refinements)-1 {
				out = append(out, o)
			}
		}
		return append(out, answer(last, ""))
	}
	out := make([]viewspec.Outcome, 0, len(refinements))
	for _, r := range refinements {
		together := ""
		if len(refinements) > 1 {
			together = "the model wrote the spec for all the requests together"
		}
		out = append(out, answer(r, together))
	}
	return out
}

var (
	rePageSpec     = lazyRegexp(`(?s)<script type="application/json" id="view-spec">(.*?)</script>`)
	rePageOutcomes = lazyRegexp(`(?s)<script type="application/json" id="view-outcomes">(.*?)</script>`)
)

// specOfPage reads the spec a page of genui's carries (#view-spec) and
// validates it; false when the page has none (a page of the html mode) or
// it is not valid. Whatever else the page holds is never used: the spec is
// drawn again by genui's renderers.
func specOfPage(page string) (viewspec.Spec, bool) {
	page = unpacked(page)
	m := rePageSpec().FindStringSubmatch(page)
	if m == nil {
		return viewspec.Spec{}, false
	}
	s, errs := viewspec.Validate([]byte(m[1]))
	return s, len(errs) == 0
}

// outcomesOfPage reads the refinements' outcomes a page carries (nil when
// none or unreadable).
func outcomesOfPage(page string) []viewspec.Outcome {
	m := rePageOutcomes().FindStringSubmatch(unpacked(page))
	if m == nil {
		return nil
	}
	var out []viewspec.Outcome
	if json.Unmarshal([]byte(m[1]), &out) != nil {
		return nil
	}
	return out
}

// unpacked is page with its packed parts inflated (pagepack), as is when
// not packed or not readable.
func unpacked(page string) string {
	if !pagepack.IsPacked(page) {
		return page
	}
	if u, err := pagepack.Unpack(page); err == nil {
		return u
	}
	return page
}
