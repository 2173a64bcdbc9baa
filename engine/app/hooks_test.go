package app

import (
	"reflect"
	"slices"
	"testing"

	"github.com/genui-dev/genui/engine"
	"github.com/genui-dev/genui/engine/contract"
	"github.com/genui-dev/genui/engine/host"
	"github.com/genui-dev/genui/engine/httpapi"
)

// assembling are the methods of *engine.Engine this package, which builds
// and runs the engine, uses beyond what its consumers declare.
var assembling = []string{"Logger", "LookupTool", "Registry", "Relay", "Run"}

// engineHooks lists the exported methods of *engine.Engine that neither
// contract.API, nor an interface a consumer declares (host.Engine,
// httpapi.Engine), nor assembling names.
func engineHooks(declared ...reflect.Type) []string {
	named := map[string]bool{}
	for _, m := range assembling {
		named[m] = true
	}
	for _, t := range declared {
		for i := range t.NumMethod() {
			named[t.Method(i).Name] = true
		}
	}
	var out []string
	et := reflect.TypeFor[*engine.Engine]()
	for i := range et.NumMethod() {
		if n := et.Method(i).Name; !named[n] {
			out = append(out, n)
		}
	}
	return out
}

// TestEngineHooksAreDeclared: every exported method of *engine.Engine is
// the contract's, a hook a consumer declares in its own interface, or one
// this package assembles the engine with: a new hook gets a consumer's
// interface (or stays unexported), so consumers depend on interfaces, not
// on *engine.Engine.
func TestEngineHooksAreDeclared(t *testing.T) {
	api, hostEngine, sideEngine := reflect.TypeFor[contract.API](), reflect.TypeFor[host.Engine](), reflect.TypeFor[httpapi.Engine]()
	if extra := engineHooks(api, hostEngine, sideEngine); len(extra) > 0 {
		t.Errorf("*engine.Engine exports %v, which no consumer's interface declares: declare it where it is used (host/engine.go, httpapi/engine.go) or unexport it", extra)
	}
	// The check bites: without the host's interface its hooks are listed.
	if extra := engineHooks(api, sideEngine); !slices.Contains(extra, "TraceFrame") || !slices.Contains(extra, "OnEvent") {
		t.Errorf("without host.Engine, the host's hooks were not listed: %v", extra)
	}
}
