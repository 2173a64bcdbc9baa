package app

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

func TestValidateSpecCommand(t *testing.T) {
	var out, errOut bytes.Buffer
	if err := ValidateSpec(nil, strings.NewReader(`{"version":1,"view":{"kind":"table"}}`), &out, &errOut); err != nil || out.String() != "valid\n" {
		t.Fatalf("valid spec: %v %q %q", err, out.String(), errOut.String())
	}
	out.Reset()
	err := ValidateSpec(nil, strings.NewReader(`{"version":1,"view":{"kind":"pie"},"onload":"x"}`), &out, &errOut)
	if err == nil || !strings.Contains(errOut.String(), "/view/kind: enum") || !strings.Contains(errOut.String(), "/onload: unknown key") {
		t.Fatalf("invalid spec: %v %q", err, errOut.String())
	}
	var sch map[string]any
	if json.Unmarshal(SpecSchema(), &sch) != nil || sch["title"] != "genui view specification" {
		t.Fatal("schema")
	}
}
