package httpapi_test

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/base64"
	"encoding/json"
	"io"
	"log/slog"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/browser"
	"github.com/chromedp/chromedp"

	"github.com/genui-dev/genui/engine"
	"github.com/genui-dev/genui/engine/apitest"
	"github.com/genui-dev/genui/engine/gen"
	"github.com/genui-dev/genui/internal/browsertest"
	"github.com/genui-dev/genui/internal/llmtest"
	"github.com/genui-dev/genui/internal/testenv"
)

// The preview as an MCP host, in headless Chromium, against npm's
// server-everything over stdio: the upstream's elicitation (form and URL
// mode) and sampling (by hand, drafted by an LLM stand-in) answered in the
// page's dialog, a task-required tool run to its result, the long-running
// operation's progress and Cancel (the page's and the view's), a resource
// link opened, a blob downloaded, annotations shown.

func everything(t *testing.T) apitest.Everything {
	return apitest.Everything{Node: testenv.NodePath(t), Script: testenv.NPMBin(t, "@modelcontextprotocol/server-everything", "")}
}

// page drives one preview tab.
type page struct {
	t   *testing.T
	ctx context.Context
	r   *apitest.HostRig
}

func (p *page) open(tool, args string, call bool) {
	p.t.Helper()
	u := p.r.APIURL + "/preview/" + url.PathEscape(tool) + "?conserve=0"
	if args != "" {
		u += "&args=" + url.QueryEscape(args)
	}
	if call {
		u += "&call=1"
	}
	browsertest.Run(p.t, p.ctx, 30*time.Second, chromedp.Navigate(u))
	p.poll(`document.body.dataset.appStatus === "ready" || document.body.dataset.appStatus === "result" || document.body.dataset.call === "running"`, 30*time.Second)
	p.poll(`document.body.dataset.events === "open"`, 15*time.Second)
}

func (p *page) poll(expr string, timeout time.Duration) {
	p.t.Helper()
	if err := browsertest.PollErr(p.ctx, expr, timeout); err != nil {
		p.t.Fatalf("waiting for %s: %v\npage log:\n%s", expr, err, p.log())
	}
}

func (p *page) eval(expr string) string {
	p.t.Helper()
	ctx, cancel := context.WithTimeout(p.ctx, 15*time.Second)
	defer cancel()
	s, err := chromedp.Run(ctx, chromedp.Evaluate[string]("String("+expr+")"))
	if err != nil {
		p.t.Fatalf("eval %s: %v", expr, err)
	}
	return s
}

func (p *page) run(actions ...chromedp.Action[chromedp.Void]) {
	p.t.Helper()
	browsertest.Run(p.t, p.ctx, 20*time.Second, actions...)
}

func (p *page) log() string {
	ctx, cancel := context.WithTimeout(p.ctx, 5*time.Second)
	defer cancel()
	s, _ := chromedp.Run(ctx, chromedp.Evaluate[string](`window.genuiPreview ? genuiPreview.log.map(e => e.dir + " " + e.method + " " + e.detail).join("\n") : "(no preview state)"`))
	return s
}

func (p *page) frame(fn string) json.RawMessage {
	p.t.Helper()
	return browsertest.MustFrameEval(p.t, p.ctx, "#ui", fn)
}

func (p *page) waitFrame(cond string) {
	p.t.Helper()
	browsertest.WaitFrame(p.t, p.ctx, "#ui", "() => ("+cond+")", 30*time.Second)
}

// rawResult is the page's raw result panel.
func (p *page) rawResult() string { return p.eval(`document.getElementById("raw-result").textContent`) }

// dialog waits for the request dialog of kind.
func (p *page) dialog(kind string) {
	p.t.Helper()
	p.poll(`document.getElementById("request-dialog").open && document.getElementById("request-dialog").dataset.kind === "`+kind+`"`, 30*time.Second)
}

func TestPreviewAsHostBrowser(t *testing.T) {
	r := apitest.StartEverything(t, everything(t))
	bctx := browsertest.Start(t)
	downloads := t.TempDir()
	browsertest.Run(t, bctx, 20*time.Second, chromedp.Navigate("about:blank"))
	if _, err := chromedp.CallBrowser(bctx, browser.SetDownloadBehavior, browser.SetDownloadBehaviorParams{
		Behavior: browser.SetDownloadBehaviorBehaviorAllow, DownloadPath: downloads}); err != nil {
		t.Fatal(err)
	}
	p := &page{t: t, ctx: bctx, r: r}

	t.Run("ElicitationAnswered", func(t *testing.T) {
		p.t = t
		p.open("trigger-elicitation-request", "", true)
		p.dialog("elicitation")
		if got := p.eval(`document.querySelector("#request-dialog .request-message").textContent`); !strings.Contains(got, "Please provide inputs") {
			t.Fatalf("dialog message %q", got)
		}
		p.run(chromedp.SendKeys(chromedp.CSS(`#request-dialog input[name="name"]`), "Ada Lovelace"),
			chromedp.Click(chromedp.CSS(`#req-accept`)))
		p.poll(`document.body.dataset.appStatus === "result"`, 30*time.Second)
		if res := p.rawResult(); !strings.Contains(res, "Name: Ada Lovelace") {
			t.Fatalf("raw result does not show the answered values: %s", res)
		}
		p.poll(`!document.getElementById("request-dialog").open`, 5*time.Second)
		// The view shows the result too.
		p.waitFrame(`document.body.textContent.includes("Ada Lovelace")`)
	})

	t.Run("URLElicitationShown", func(t *testing.T) {
		p.t = t
		p.open("trigger-url-elicitation", `{"url": "https://example.com/consent?step=2", "message": "Consent, please"}`, true)
		p.dialog("elicitation")
		if got := p.eval(`document.getElementById("request-url").textContent`); got != "https://example.com/consent?step=2" {
			t.Fatalf("URL shown: %q", got)
		}
		if got := p.eval(`document.getElementById("request-open").href`); got != "https://example.com/consent?step=2" {
			t.Fatalf("open link: %q", got)
		}
		if got := p.eval(`document.querySelector("#request-dialog .request-url").textContent`); !strings.Contains(got, "Opens example.com") {
			t.Fatalf("the dialog does not name the URL's host: %q", got)
		}
		p.run(chromedp.Click(chromedp.CSS(`#req-accept`)))
		p.poll(`document.body.dataset.appStatus === "result"`, 30*time.Second)
		if res := p.rawResult(); !strings.Contains(res, "User completed the URL elicitation flow") {
			t.Fatalf("raw result: %s", res)
		}
	})

	t.Run("SamplingAnsweredByHand", func(t *testing.T) {
		p.t = t
		p.open("trigger-sampling-request", `{"prompt": "What is six times seven?"}`, true)
		p.dialog("sampling")
		msgs := p.eval(`document.querySelector("#request-dialog .request-messages").textContent`)
		sys := p.eval(`document.querySelector("#request-dialog .request-system").textContent`)
		if !strings.Contains(msgs, "six times seven") || sys != "You are a helpful test server." {
			t.Fatalf("sampling dialog: messages %q, system %q", msgs, sys)
		}
		p.run(chromedp.SendKeys(chromedp.CSS(`#sampling-answer`), "Forty-two, typed by a person."),
			chromedp.Click(chromedp.CSS(`#req-send`)))
		p.poll(`document.body.dataset.appStatus === "result"`, 30*time.Second)
		if res := p.rawResult(); !strings.Contains(res, "Forty-two, typed by a person.") {
			t.Fatalf("raw result: %s", res)
		}
	})

	t.Run("TaskRequiredRunsToItsResult", func(t *testing.T) {
		p.t = t
		p.open("simulate-research-query", `{"topic": "tide pools"}`, false)
		if got := p.eval(`document.getElementById("task-required") ? document.getElementById("task-required").textContent : ""`); got != "runs as a task" {
			t.Fatalf("task badge %q", got)
		}
		p.run(chromedp.Click(chromedp.CSS(`#call`)))
		p.poll(`document.getElementById("task-status").dataset.status === "working"`, 15*time.Second)
		p.poll(`document.body.dataset.appStatus === "result"`, 40*time.Second)
		if res := p.rawResult(); !strings.Contains(res, "Research Report: tide pools") {
			t.Fatalf("raw result: %s", res)
		}
		// The task's last status comes over the event stream, which may reach
		// the page after the call's answer: it must still be shown.
		p.poll(`document.getElementById("task-status").dataset.status === "completed"`, 10*time.Second)
		if st := p.eval(`document.getElementById("task-status").textContent`); !strings.Contains(st, "completed") {
			t.Fatalf("task status after the result: %q", st)
		}
	})

	// The task's statuses come over the event stream and the call's answer
	// over its own request: a last status that comes after the answer is
	// still shown, and one for an older call never covers a newer call's.
	t.Run("TaskStatusAfterTheAnswer", func(t *testing.T) {
		p.t = t
		got := p.eval(`(() => {
  const line = document.getElementById("task-status"), es = new EventTarget(), div = () => document.createElement("div");
  const s = GenuiPreviewHost.create({tool: "x", addLog: () => {}, bridge: () => null, readResource: () => Promise.reject(new Error("no")),
    dialog: document.getElementById("request-dialog"), progress: {wrap: div(), fill: div(), label: div(), cancel: document.createElement("button")}, taskStatus: line});
  s.listen(es);
  const send = (callId, status) => es.dispatchEvent(new MessageEvent("task-status", {data: JSON.stringify({detail: {callId, task: {taskId: "t-" + callId, status}}})}));
  const a = s.hostCall("x", {}, true);
  send(a.id, "working");
  a.done("done");
  send(a.id, "completed");
  const first = line.dataset.status + " " + line.textContent;
  const b = s.hostCall("x", {}, true);
  send(b.id, "working");
  b.done("done");
  const c = s.hostCall("x", {}, true);
  send(b.id, "completed");
  const second = line.dataset.status + " " + line.textContent;
  c.done("done");
  send(c.id, "failed");
  return [first, second, line.dataset.status].join(" | ");
})()`)
		parts := strings.Split(got, " | ")
		if len(parts) != 3 || !strings.HasPrefix(parts[0], "completed Task t-p-") || strings.Contains(parts[1], "completed") || parts[2] != "failed" {
			t.Fatalf("task status line after each step %q; want the late completed shown, not over a newer call's line, and the newer call's failed", got)
		}
	})

	t.Run("ProgressThenCancel", func(t *testing.T) {
		p.t = t
		p.open("trigger-long-running-operation", `{"duration": 30, "steps": 60}`, true)
		p.poll(`new Set(genuiPreview.surface.progress.map(e => e.progress)).size >= 3`, 20*time.Second)
		if lbl := p.eval(`document.getElementById("progress-label").textContent`); !strings.Contains(lbl, "of 60") {
			t.Fatalf("progress label %q", lbl)
		}
		if w := p.eval(`document.getElementById("progress-fill").style.width`); w == "" || w == "0%" {
			t.Fatalf("progress bar width %q", w)
		}
		// The call ends cancelled, well before the operation's own 30 s
		// (the poll's bound is under what is left of it); that the upstream
		// heard the cancel is checked next.
		p.run(chromedp.Click(chromedp.CSS(`#cancel-call`)))
		p.poll(`document.body.dataset.call === "cancelled"`, 20*time.Second)
		// The page logs "cancel ID" when genui answers the cancel request,
		// which may come after the call itself ended cancelled.
		p.poll(`genuiPreview.log.some(e => e.method.startsWith("cancel p-"))`, 10*time.Second)
		callID := p.eval(`genuiPreview.log.filter(e => e.method.startsWith("cancel p-")).map(e => e.method.slice(7))[0]`)
		waitSent(t, r, func(s string) bool { return cancelledFor(s, "trigger-long-running-operation", callID) })
		if st := p.eval(`document.getElementById("call-status").textContent`); !strings.HasPrefix(st, "Cancelled") {
			t.Fatalf("call status %q", st)
		}
	})

	t.Run("ViewProgressThenCancel", func(t *testing.T) {
		p.t = t
		p.open("trigger-long-running-operation", `{"duration": 30, "steps": 60}`, false)
		p.waitFrame(`document.body.dataset.state === "ready"`)
		p.frame(`() => {
			for (const [id, v] of [["f-duration", "30"], ["f-steps", "60"]]) {
				const i = document.getElementById(id);
				i.value = v;
				i.dispatchEvent(new Event("input", { bubbles: true }));
			}
			document.getElementById("submit").click();
			return true;
		}`)
		p.waitFrame(`(document.querySelector(".progress-label") || {}).textContent && document.querySelector(".progress-label").textContent.includes("3 of 60")`)
		p.frame(`() => { document.getElementById("cancel").click(); return true; }`)
		p.waitFrame(`document.getElementById("status").textContent.includes("Cancelled")`)
		p.poll(`genuiPreview.log.some(e => e.method.startsWith("cancel v-"))`, 5*time.Second)
		callID := p.eval(`genuiPreview.log.filter(e => e.method.startsWith("cancel v-")).map(e => e.method.slice(7))[0]`)
		waitSent(t, r, func(s string) bool { return cancelledFor(s, "trigger-long-running-operation", callID) })
	})

	t.Run("ResourceLinkOpened", func(t *testing.T) {
		p.t = t
		p.open("get-resource-links", `{"count": 2}`, true)
		p.poll(`document.body.dataset.appStatus === "result"`, 30*time.Second)
		p.waitFrame(`document.querySelectorAll(".link-item .open-resource").length === 2`)
		p.frame(`() => { const it = [...document.querySelectorAll(".link-item")].find(x => x.textContent.includes("Text Resource 2")); it.querySelector(".open-resource").click(); return true; }`)
		p.waitFrame(`[...document.querySelectorAll(".resource-contents")].some(x => x.textContent.includes("Resource 2: This is a plaintext resource"))`)
	})

	t.Run("BlobDownloaded", func(t *testing.T) {
		p.t = t
		original := "genui blob download test\n" + strings.Repeat("0123456789", 50)
		data := "data:text/plain;base64," + base64.StdEncoding.EncodeToString([]byte(original))
		args, _ := json.Marshal(map[string]string{"name": "sample.txt.gz", "data": data, "outputType": "resource"})
		p.open("gzip-file-as-resource", string(args), true)
		p.poll(`document.body.dataset.appStatus === "result"`, 30*time.Second)
		p.waitFrame(`!!document.querySelector("button.download")`)
		p.frame(`() => { document.querySelector("button.download").click(); return true; }`)
		var got []byte
		downloaded := func() bool { got, _ = os.ReadFile(filepath.Join(downloads, "sample.txt.gz")); return len(got) > 0 }
		if !testenv.Until(20*time.Second, downloaded) {
			t.Fatalf("no sample.txt.gz downloaded to %s; page log:\n%s", downloads, p.log())
		}
		var res struct {
			Content []struct {
				Resource struct {
					Blob string `json:"blob"`
				} `json:"resource"`
			} `json:"content"`
		}
		if err := json.Unmarshal([]byte(p.eval(`JSON.stringify(genuiPreview.lastResult.result)`)), &res); err != nil || len(res.Content) == 0 {
			t.Fatalf("result: %v", err)
		}
		want, _ := base64.StdEncoding.DecodeString(res.Content[0].Resource.Blob)
		if !bytes.Equal(got, want) {
			t.Fatalf("downloaded %d bytes, the result's blob has %d", len(got), len(want))
		}
		zr, err := gzip.NewReader(bytes.NewReader(got))
		if err != nil {
			t.Fatal(err)
		}
		plain, _ := io.ReadAll(zr)
		if string(plain) != original {
			t.Fatalf("the download does not unzip to the original: %q", plain)
		}
	})

	t.Run("AnnotationBadges", func(t *testing.T) {
		p.t = t
		p.open("get-annotated-message", `{"messageType": "error", "includeImage": true}`, true)
		p.poll(`document.body.dataset.appStatus === "result"`, 30*time.Second)
		p.waitFrame(`[...document.querySelectorAll(".badge.priority")].some(b => b.textContent === "priority 1") && [...document.querySelectorAll(".badge.audience")].some(b => b.textContent.includes("user"))`)
	})
}

// TestPreviewSamplingDraftedByLLM: Draft with LLM fills the answer from
// genui's provider (an Anthropic stand-in, through genui's real client);
// nothing reaches the tool until Send.
func TestPreviewSamplingDraftedByLLM(t *testing.T) {
	const text = "Eleven, drafted by the stand-in."
	srv := llmtest.New(t, llmtest.Anthropic, llmtest.Reply{Text: text})
	r := apitest.StartEverything(t, everything(t), func(o *engine.Options) {
		l, err := gen.New(gen.Config{Provider: gen.ProviderAnthropic, Model: "stand-in-model", BaseURL: srv.BaseURL(),
			APIKey: llmtest.TestKey, Logger: slog.New(slog.DiscardHandler)})
		if err != nil {
			t.Fatal(err)
		}
		o.Generator = l
	})
	p := &page{t: t, ctx: browsertest.Start(t), r: r}
	p.open("trigger-sampling-request", `{"prompt": "Name a prime between 10 and 12."}`, true)
	p.dialog("sampling")
	p.run(chromedp.Click(chromedp.CSS(`#req-draft`)))
	p.poll(`document.getElementById("request-dialog").dataset.drafted === "1"`, 30*time.Second)
	if got := p.eval(`document.getElementById("sampling-answer").value`); got != text {
		t.Fatalf("drafted answer %q, want %q", got, text)
	}
	if note := p.eval(`document.getElementById("sampling-note").textContent`); !strings.Contains(note, "anthropic") || !strings.Contains(note, "stand-in-model") {
		t.Fatalf("draft note %q", note)
	}
	if st := p.eval(`document.body.dataset.appStatus`); st == "result" {
		t.Fatal("the tool got a result before the draft was sent")
	}
	p.run(chromedp.Click(chromedp.CSS(`#req-send`)))
	p.poll(`document.body.dataset.appStatus === "result"`, 30*time.Second)
	if res := p.rawResult(); !strings.Contains(res, text) || !strings.Contains(res, "stand-in-model") {
		t.Fatalf("raw result: %s", res)
	}
}

// waitSent waits until what genui sent the upstream satisfies ok.
func waitSent(t *testing.T, r *apitest.HostRig, ok func(string) bool) {
	t.Helper()
	if !testenv.Until(10*time.Second, func() bool { return ok(r.Sent()) }) {
		t.Fatalf("the upstream never received it; genui sent:\n%s", tailOf(r.Sent(), 4000))
	}
}

// cancelledFor reports whether the upstream got notifications/cancelled
// for the tools/call of tool whose progress token names callID.
func cancelledFor(sent, tool, callID string) bool {
	var id string
	for _, line := range strings.Split(sent, "\n") {
		var m map[string]json.RawMessage
		if json.Unmarshal([]byte(line), &m) != nil {
			continue
		}
		if string(m["method"]) == `"tools/call"` && strings.Contains(string(m["params"]), tool) && strings.Contains(string(m["params"]), callID) {
			id = string(m["id"])
		}
		var p struct {
			RequestID json.RawMessage `json:"requestId"`
		}
		if id != "" && string(m["method"]) == `"notifications/cancelled"` && json.Unmarshal(m["params"], &p) == nil && string(p.RequestID) == id {
			return true
		}
	}
	return false
}

func tailOf(s string, n int) string {
	if len(s) > n {
		return s[len(s)-n:]
	}
	return s
}
