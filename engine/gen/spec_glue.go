package gen

import (
	"context"
	"encoding/json"
	"fmt"
	"html"
	"regexp"
	"strings"

	"github.com/genui-dev/genui/viewspec"
)

// Stand-ins for what the viewspec branch provides (the offline proposal,
// pages carrying and drawing their spec), until it is merged.

func proposedSpec(req Request) (viewspec.Spec, error) { return viewspec.New(), nil }

const specScriptID = "view-spec"

var reSpecScript = regexp.MustCompile(`(?s)<script type="application/json" id="` + specScriptID + `">(.*?)</script>`)

func drawSpec(ctx context.Context, req Request, s viewspec.Spec) (Result, error) {
	off, err := NewOffline().Generate(ctx, Request{Tool: req.Tool})
	if err != nil {
		return Result{}, err
	}
	var b strings.Builder
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(true)
	_ = enc.Encode(s)
	tag := `<script type="application/json" id="` + specScriptID + `">` + strings.TrimSpace(b.String()) + `</script>`
	i := strings.Index(off.HTML, "</head>")
	if i < 0 {
		return Result{}, fmt.Errorf("no head")
	}
	off.HTML = off.HTML[:i] + tag + off.HTML[i:]
	return off, nil
}

func pageSpec(page string) (viewspec.Spec, bool) {
	m := reSpecScript.FindStringSubmatch(page)
	if m == nil {
		return viewspec.Spec{}, false
	}
	s, errs := viewspec.Validate([]byte(html.UnescapeString(m[1])))
	return s, len(errs) == 0
}

func specChanges(a, b viewspec.Spec) []string {
	if string(a.JSON()) == string(b.JSON()) {
		return nil
	}
	return []string{"spec changed"}
}
