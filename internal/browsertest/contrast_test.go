package browsertest

import (
	"net/http"
	"net/http/httptest"
	"slices"
	"sort"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// contrastPage holds text just under and just over 4.5:1 in every way the
// walker must see it: plain text, translucent text and backgrounds, an
// ancestor's opacity, generated ::before text, SVG text, form values; and
// text it must leave out (hidden, disabled, placeholder).
const contrastPage = `<!doctype html><html><head><style>
body { background: #ffffff; color: #000000; font: 14px sans-serif; }
.bad { color: #777777; }           /* 4.48:1 on white */
.good { color: #767676; }          /* 4.54:1 on white */
.tint { background: rgba(0, 0, 0, 0.05); }
.faded { opacity: 0.7; }
.label::before { content: attr(data-label); color: #888888; }
.ok-label::before { content: "ok"; color: #000000; }
.hidden { display: none; color: #eeeeee; }
input.pale { color: #999999; }
input::placeholder { color: #dddddd; }
button:disabled { color: #cccccc; }
svg text { fill: #aaaaaa; }
.mix { color: color-mix(in srgb, #777777 50%, transparent); }
</style></head><body>
<p class="bad" id="bad">too light</p>
<p class="good" id="good">just right</p>
<div class="tint"><span class="good" id="tinted">on a tint</span></div>
<div class="faded"><span id="faded">faded black</span></div>
<p class="label" data-label="key">value</p>
<p class="ok-label">fine</p>
<p class="hidden">not rendered</p>
<input class="pale" id="pale" value="typed">
<input placeholder="only a placeholder">
<button disabled>inactive</button>
<svg width="200" height="30"><text x="0" y="20">axis</text></svg>
<p class="mix">mixed</p>
</body></html>`

func TestContrastWalkerFindsLowContrastText(t *testing.T) {
	inner := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		_, _ = w.Write([]byte(contrastPage))
	}))
	defer inner.Close()
	outer := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		_, _ = w.Write([]byte(`<!doctype html><iframe id="f" style="width: 600px; height: 600px" src="` + inner.URL + `"></iframe>`))
	}))
	defer outer.Close()

	ctx := Start(t)
	Run(t, ctx, 20*time.Second, chromedp.Navigate(outer.URL))
	WaitFrame(t, ctx, "#f", `(w, d) => !!d.getElementById("bad")`, 10*time.Second)
	issues, err := LowContrast(ctx, "#f", 4.5)
	if err != nil {
		t.Fatal(err)
	}
	var texts []string
	for _, is := range issues {
		texts = append(texts, is.Text)
		if is.Ratio >= 4.5 || is.Color == "" || is.Background == "" {
			t.Errorf("issue %s: ratio, colour or background wrong", is)
		}
	}
	sort.Strings(texts)
	// "on a tint": #767676 over 5% black is 4.1:1; "faded black": 70% opacity is still 7.9:1.
	want := []string{"axis", "key", "mixed", "on a tint", "too light", "typed"}
	if !slices.Equal(texts, want) {
		t.Errorf("low-contrast texts = %q, want %q\n%v", texts, want, issues)
	}
	for _, is := range issues {
		if is.Text == "too light" && (is.Color != "#777777" || is.Background != "#ffffff" || is.Ratio != 4.48) {
			t.Errorf("too light: %s, want #777777 on #ffffff at 4.48:1", is)
		}
	}
}
