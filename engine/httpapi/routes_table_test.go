package httpapi

import (
	"net/http"
	"net/http/httptest"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/genui-dev/genui/engine"
	"github.com/genui-dev/genui/engine/contract"
)

// pathParam is a {param} of a route pattern.
var pathParam = regexp.MustCompile(`\{[^}]+\}`)

// TestAPIRoutesFromTable: the side server serves every method of
// contract.Methods on its declared route (the mux matches a request to it
// with exactly that pattern), has a handler for every method and none for
// a method the table lacks.
func TestAPIRoutesFromTable(t *testing.T) {
	e, err := engine.New(engine.Options{Upstream: demoConfig(), Dir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	s := New(Options{Engine: e, Upstream: e.Relay(), Tools: e.Registry()})
	handlers := s.apiHandlers()
	for name := range handlers {
		if !slices.ContainsFunc(contract.Methods, func(m contract.Method) bool { return m.Name == name }) {
			t.Errorf("a handler for %s, which contract.Methods lacks", name)
		}
	}
	if _, missing := apiRoutes(handlers); len(missing) > 0 {
		t.Errorf("no handler for %v", missing)
	}
	for _, m := range contract.Methods {
		verb, path, _ := strings.Cut(m.Route, " ")
		target := pathParam.ReplaceAllString(path, "x1")
		if m.Query != "" {
			target += "?" + m.Query
		}
		req := httptest.NewRequest(verb, target, nil)
		if _, pattern := s.api.Handler(req); pattern != m.Route {
			t.Errorf("%s: %s %s is served by %q, want %q", m.Name, verb, target, pattern, m.Route)
		}
	}
}

// TestAPIRoutesReportMissingHandler: a method without a handler is
// reported (and its route not served), so the server cannot start
// answering 404 for it.
func TestAPIRoutesReportMissingHandler(t *testing.T) {
	handlers := map[string]http.Handler{}
	for _, m := range contract.Methods {
		handlers[m.Name] = http.NotFoundHandler()
	}
	delete(handlers, "RunChecks")
	routes, missing := apiRoutes(handlers)
	if !slices.Equal(missing, []string{"RunChecks"}) {
		t.Errorf("missing = %v, want [RunChecks]", missing)
	}
	if slices.ContainsFunc(routes, func(r route) bool { return r.pattern == "POST /api/checks/run" }) {
		t.Error("the route of a method without a handler is still served")
	}
}
