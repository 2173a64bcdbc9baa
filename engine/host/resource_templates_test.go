package host_test

import (
	"testing"

	"github.com/genui-dev/genui/engine/host"
)

// TestResourceTemplatesListIsNeverMethodNotFound: genui always advertises
// resources, so resources/templates/list must answer (an empty list) both
// when the upstream has no resources at all (the demo) and when it has
// resources but no templates and answers -32601 (the scripted upstream).
func TestResourceTemplatesListIsNeverMethodNotFound(t *testing.T) {
	for name, h := range map[string]*harness{
		"upstream without resources":            startHost(t, demoUpstream(), host.UIMetaAlways),
		"upstream with resources, no templates": startHost(t, scriptedUpstream(newScripted()), host.UIMetaAlways),
	} {
		t.Run(name, func(t *testing.T) {
			h.c.initialize(nil)
			r := h.c.call("resources/templates/list", map[string]any{})
			if r.Error != nil {
				t.Fatalf("resources/templates/list: %v", r.Error)
			}
			if string(r.Result) != `{"resourceTemplates":[]}` {
				t.Fatalf("resources/templates/list = %s, want an empty list", r.Result)
			}
		})
	}
}
