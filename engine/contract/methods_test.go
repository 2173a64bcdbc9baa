package contract_test

import (
	"context"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/genui-dev/genui/engine/contract"
)

// checkMethodTable reports every way table fails to declare api: a method
// without a row (or with two), a row naming no method, a route that is not
// "GET|POST|PUT /path", two rows on one route and query, argument or result
// types that are not the method's, error codes missing or unknown, and an
// error code no method declares.
func checkMethodTable(api reflect.Type, table []contract.Method) []string {
	var problems []string
	bad := func(format string, args ...any) { problems = append(problems, fmt.Sprintf(format, args...)) }
	rows := map[string]contract.Method{}
	routes := map[string]string{}
	known := contract.ErrorCodes()
	declared := map[contract.ErrorCode]bool{}
	for _, m := range table {
		if _, dup := rows[m.Name]; dup {
			bad("%s: two rows", m.Name)
		}
		rows[m.Name] = m
		verb, path, ok := strings.Cut(m.Route, " ")
		if !ok || (verb != "GET" && verb != "POST" && verb != "PUT") || !strings.HasPrefix(path, "/") {
			bad("%s: route %q is not \"GET|POST|PUT /path\"", m.Name, m.Route)
		}
		key := m.Route + "?" + m.Query
		if other, dup := routes[key]; dup {
			bad("%s and %s share route %q (query %q)", m.Name, other, m.Route, m.Query)
		}
		routes[key] = m.Name
		if len(m.Errors) == 0 {
			bad("%s: no error codes", m.Name)
		}
		for _, c := range m.Errors {
			if !slices.Contains(known, c) {
				bad("%s: unknown error code %q", m.Name, c)
			}
			declared[c] = true
		}
	}
	ctxType := reflect.TypeFor[context.Context]()
	errType := reflect.TypeFor[error]()
	for i := range api.NumMethod() {
		am := api.Method(i)
		m, ok := rows[am.Name]
		if !ok {
			bad("%s: no row in contract.Methods", am.Name)
			continue
		}
		ft := am.Type
		if ft.NumIn() == 0 || ft.In(0) != ctxType {
			bad("%s: first argument is not a context", am.Name)
		}
		var req, resp reflect.Type
		if ft.NumIn() == 2 {
			req = ft.In(1)
		}
		if ft.NumOut() == 2 {
			resp = ft.Out(0)
		}
		if ft.NumIn() > 2 || ft.NumOut() == 0 || ft.NumOut() > 2 || ft.Out(ft.NumOut()-1) != errType {
			bad("%s: signature %s is not (ctx[, request]) ([response, ]error)", am.Name, ft)
		}
		if m.Request != req {
			bad("%s: row says request %v, the method takes %v", am.Name, m.Request, req)
		}
		if m.Response != resp {
			bad("%s: row says response %v, the method returns %v", am.Name, m.Response, resp)
		}
	}
	for name := range rows {
		if _, ok := api.MethodByName(name); !ok {
			bad("%s: a row for no method of API", name)
		}
	}
	for _, c := range known {
		if !declared[c] {
			bad("error code %s: no method declares it", c)
		}
	}
	slices.Sort(problems)
	return problems
}

var apiType = reflect.TypeFor[contract.API]()

// TestMethodTable: contract.Methods declares every method of API, each
// exactly once, with its route, its types and its error codes.
func TestMethodTable(t *testing.T) {
	if len(contract.Methods) != apiType.NumMethod() {
		t.Errorf("%d rows for %d methods", len(contract.Methods), apiType.NumMethod())
	}
	for _, p := range checkMethodTable(apiType, contract.Methods) {
		t.Error(p)
	}
}

// TestMethodTableCheckBites: the check above reports a table with a row
// removed, a route blanked, a wrong type, an unknown code and no codes.
func TestMethodTableCheckBites(t *testing.T) {
	edit := func(f func([]contract.Method) []contract.Method) []contract.Method {
		return f(slices.Clone(contract.Methods))
	}
	for _, c := range []struct {
		name  string
		table []contract.Method
		want  string
	}{
		{"row removed", edit(func(ms []contract.Method) []contract.Method {
			return slices.DeleteFunc(ms, func(m contract.Method) bool { return m.Name == "CancelCall" })
		}), "CancelCall: no row"},
		{"route removed", edit(func(ms []contract.Method) []contract.Method { ms[0].Route = ""; return ms }), "State: route"},
		{"two rows on one route", edit(func(ms []contract.Method) []contract.Method { ms[1].Route, ms[1].Query = ms[0].Route, ""; return ms }), "share route"},
		{"wrong request", edit(func(ms []contract.Method) []contract.Method { ms[3].Request = reflect.TypeFor[int](); return ms }), "UI: row says request int"},
		{"no codes", edit(func(ms []contract.Method) []contract.Method { ms[2].Errors = nil; return ms }), "Tools: no error codes"},
		{"unknown code", edit(func(ms []contract.Method) []contract.Method {
			ms[2].Errors = []contract.ErrorCode{"nope"}
			return ms
		}), `unknown error code "nope"`},
	} {
		problems := checkMethodTable(apiType, c.table)
		if !slices.ContainsFunc(problems, func(p string) bool { return strings.Contains(p, c.want) }) {
			t.Errorf("%s: the check did not report %q; it reported %q", c.name, c.want, problems)
		}
	}
}
