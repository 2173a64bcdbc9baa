package apiclient_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/genui-dev/genui/engine/apiclient"
	"github.com/genui-dev/genui/engine/contract"
)

// tableServer answers every route of table with an empty answer and
// records which row each request matched ("" when none: a 404).
type tableServer struct {
	mu   sync.Mutex
	last string
}

func (ts *tableServer) handler(table []contract.Method) http.Handler {
	mux := http.NewServeMux()
	registered := map[string]bool{}
	for _, m := range table {
		if registered[m.Route] {
			continue
		}
		registered[m.Route] = true
		mux.HandleFunc(m.Route, func(w http.ResponseWriter, r *http.Request) {
			ts.mu.Lock()
			ts.last = rowOf(table, r.Pattern, r.URL.RawQuery)
			ts.mu.Unlock()
			if r.Pattern == "GET /events" {
				w.Header().Set("Content-Type", "text/event-stream")
				w.WriteHeader(http.StatusOK)
				return
			}
			w.Header().Set("Content-Type", "application/json")
			_, _ = w.Write([]byte("null"))
		})
	}
	return mux
}

// rowOf is the row of table a request on pattern with query matched: the
// one whose Query the request carries, else the one with none.
func rowOf(table []contract.Method, pattern, query string) string {
	name := ""
	for _, m := range table {
		if m.Route != pattern {
			continue
		}
		if m.Query != "" && strings.Contains("&"+query+"&", "&"+m.Query+"&") {
			return m.Name
		}
		if m.Query == "" {
			name = m.Name
		}
	}
	return name
}

// argument is a request of type t with its path fields set, so a path
// parameter is never empty.
func argument(t reflect.Type) reflect.Value {
	v := reflect.New(t).Elem()
	switch t.Kind() {
	case reflect.String:
		v.SetString("x1")
	case reflect.Int64:
		v.SetInt(1)
	case reflect.Struct:
		for _, f := range []string{"Tool", "Name", "ID", "URI"} {
			fv := v.FieldByName(f)
			if fv.IsValid() && fv.Kind() == reflect.String {
				fv.SetString("x1")
			} else if fv.IsValid() && fv.Kind() == reflect.Int64 {
				fv.SetInt(1)
			}
		}
	}
	return v
}

// checkClient calls every method of contract.Methods on a client of a
// server serving table and reports each whose request no row of table, or
// another method's row, answered.
func checkClient(t *testing.T, table []contract.Method) []string {
	ts := &tableServer{}
	srv := httptest.NewServer(ts.handler(table))
	defer srv.Close()
	c := reflect.ValueOf(apiclient.New(srv.URL, nil))
	var problems []string
	for _, m := range contract.Methods {
		f := c.MethodByName(m.Name)
		if !f.IsValid() {
			problems = append(problems, m.Name+": the client has no such method")
			continue
		}
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
		args := []reflect.Value{reflect.ValueOf(ctx)}
		if m.Request != nil {
			args = append(args, argument(m.Request))
		}
		ts.mu.Lock()
		ts.last = "(no request)"
		ts.mu.Unlock()
		out := f.Call(args)
		cancel()
		ts.mu.Lock()
		got := ts.last
		ts.mu.Unlock()
		errv := out[len(out)-1]
		switch {
		case got != m.Name:
			problems = append(problems, fmt.Sprintf("%s: the client's request matched %q", m.Name, got))
		case !errv.IsNil():
			problems = append(problems, fmt.Sprintf("%s: %v", m.Name, errv.Interface()))
		}
	}
	return problems
}

// TestClientFollowsMethodTable: every client method sends its request to
// the route (and query) contract.Methods declares for it.
func TestClientFollowsMethodTable(t *testing.T) {
	for _, p := range checkClient(t, contract.Methods) {
		t.Error(p)
	}
}

// TestClientCheckBites: against a server whose table lacks a route, the
// check reports the method that lost it.
func TestClientCheckBites(t *testing.T) {
	table := slices.DeleteFunc(slices.Clone(contract.Methods), func(m contract.Method) bool { return m.Name == "AddCheck" })
	problems := checkClient(t, table)
	if !slices.ContainsFunc(problems, func(p string) bool { return strings.HasPrefix(p, "AddCheck:") }) {
		t.Errorf("a route removed went unreported: %q", problems)
	}
	table = slices.Clone(contract.Methods)
	for i := range table {
		if table[i].Name == "ReadableUI" {
			table[i].Query = "pretty=1"
		}
	}
	if problems := checkClient(t, table); !slices.ContainsFunc(problems, func(p string) bool { return strings.HasPrefix(p, "ReadableUI:") }) {
		t.Errorf("a query the client does not send went unreported: %q", problems)
	}
}
