package contract_test

import (
	"strings"
	"testing"

	"github.com/genui-dev/genui/engine/contract"
)

func TestBuildVariablesPaths(t *testing.T) {
	vs, err := contract.BuildVariables([]byte(`{"a":{"b":[1,{"c":null}]},"x.y":"s","":true,"e":{},"f":[]}`))
	if err != nil {
		t.Fatal(err)
	}
	var paths []string
	for _, v := range vs {
		paths = append(paths, v.Path+":"+v.Type)
	}
	want := []string{":object", "a:object", "a.b:array", "a.b[0]:number", "a.b[1]:object", "a.b[1].c:null",
		`["x.y"]:string`, `[""]:boolean`, "e:object", "f:array"}
	if strings.Join(paths, " ") != strings.Join(want, " ") {
		t.Fatalf("paths\n got %v\nwant %v", paths, want)
	}
	for _, bad := range []string{``, `{`, `{"a":1} 2`, `[1,]`} {
		if _, err := contract.BuildVariables([]byte(bad)); err == nil {
			t.Errorf("BuildVariables(%q) succeeded", bad)
		}
	}
}
