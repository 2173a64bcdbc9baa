package pagecsp

import (
	"strings"
	"testing"

	"github.com/genui-dev/genui/pagepack"
)

func TestApplyHashesEveryScriptTheBrowserRuns(t *testing.T) {
	page := "<!doctype html>\n<html><head><title>t</title><script>var a = 1;\r\nvar b = 2;</script></head><body>" +
		`<script type="module">import("x");</script>` +
		`<script type="application/json" id="d">{"a": 1}</script>` +
		`<script src="data:text/javascript,1"></script>` +
		`<svg><script>let s = &quot;svg&quot;;</script></svg></body></html>`
	out := Apply(page)
	for _, want := range []string{
		Hash("var a = 1;\nvar b = 2;"), // CR LF as the parser normalizes it
		Hash(`import("x");`),
		Hash(`let s = "svg";`), // foreign content: entities decoded
	} {
		if !strings.Contains(out, want) {
			t.Errorf("the policy lacks %s:\n%s", want, out)
		}
	}
	if strings.Contains(out, Hash(`{"a": 1}`)) || strings.Contains(out, Hash("")) {
		t.Errorf("a data block or an external script got a hash:\n%s", out)
	}
	if !strings.HasPrefix(out, `<!doctype html>`+"\n"+`<html><head>`+"\n"+`<meta http-equiv="Content-Security-Policy" `+Attr) {
		t.Errorf("the meta tag is not the head's first element:\n%s", out[:200])
	}
	if strings.Contains(out, "'strict-dynamic'") {
		t.Errorf("a page that is not packed got 'strict-dynamic': %s", out)
	}
	for _, want := range []string{"base-uri 'none'", "form-action 'none'", "connect-src 'none'", "default-src 'none'"} {
		if !strings.Contains(out, want) {
			t.Errorf("the policy lacks %s", want)
		}
	}
	if strings.Contains(strings.SplitN(out, "style-src", 2)[0], "unsafe-inline") {
		t.Errorf("script-src allows 'unsafe-inline': %s", out)
	}
	if again := Apply(out); again != out {
		t.Errorf("Apply is not idempotent:\n%s\n%s", out, again)
	}
	// A script added later gets its hash on the next Apply; the old tag goes.
	added := Apply(strings.Replace(out, "</body>", "<script>late()</script></body>", 1))
	if strings.Count(added, Attr) != 1 || !strings.Contains(added, Hash("late()")) {
		t.Errorf("re-applied:\n%s", added)
	}
	if Strip(added) != strings.Replace(page, "</body>", "<script>late()</script></body>", 1) {
		t.Errorf("Strip does not give the page back")
	}
}

func TestApplyPlacesTheMetaTagBeforeAnythingThatRuns(t *testing.T) {
	for name, tc := range map[string]struct{ in, prefix string }{
		"head":                {"<!doctype html><html lang=en><head><script>x()</script></head></html>", `<!doctype html><html lang=en><head>` + "\n" + `<meta http-equiv`},
		"no head":             {"<!doctype html><html><body><script>x()</script></body></html>", `<!doctype html><html>` + "\n" + `<meta http-equiv`},
		"script before head":  {"<!doctype html><html><script>x()</script><head></head></html>", `<!doctype html><html>` + "\n" + `<meta http-equiv`},
		"no html":             {"<!DOCTYPE html><p>hi</p>", `<!DOCTYPE html>` + "\n" + `<meta http-equiv`},
		"fragment":            {"<p>hi</p>", "\n" + `<meta http-equiv`},
		"comment before head": {"<!doctype html><!-- c --><html><head></head></html>", `<!doctype html><!-- c --><html><head>` + "\n" + `<meta http-equiv`},
	} {
		if got := Apply(tc.in); !strings.HasPrefix(got, tc.prefix) {
			t.Errorf("%s: %s", name, got)
		}
	}
}

func TestApplyHashesPackedParts(t *testing.T) {
	page, err := pagepack.Pack("<!doctype html><html><head><style>p{}</style></head><body><main></main><script>one()</script><script type=\"module\">two()</script></body></html>")
	if err != nil {
		t.Fatal(err)
	}
	if !pagepack.IsPacked(page) {
		t.Fatal("not packed")
	}
	out := Apply(page)
	if !strings.Contains(out, "'strict-dynamic'") {
		t.Errorf("a packed page lacks 'strict-dynamic' for its loader's scripts")
	}
	if g := Apply(GuardedMark + "</script>" + page); strings.Contains(g, "'strict-dynamic'") {
		t.Errorf("a guarded (model-written) page got 'strict-dynamic'")
	}
	for _, want := range []string{Hash("one()"), Hash("two()")} {
		if !strings.Contains(out, want) {
			t.Errorf("the policy lacks the packed part's %s", want)
		}
	}
}
