package viewspec

import (
	"encoding/json"
	"os"
	"regexp"
	"testing"
)

// TestREADMESpecExamplesValidate: every view specification the README
// shows (a JSON block with a top-level "version") passes Validate as
// copied, so the documentation and the schema cannot drift apart.
func TestREADMESpecExamplesValidate(t *testing.T) {
	b, err := os.ReadFile("../README.md")
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, m := range regexp.MustCompile("(?s)```json\n(.*?)```").FindAllSubmatch(b, -1) {
		var top map[string]json.RawMessage
		if json.Unmarshal(m[1], &top) != nil || top["version"] == nil {
			continue
		}
		n++
		if _, errs := Validate(m[1]); len(errs) > 0 {
			t.Errorf("README spec example does not validate: %v\n%s", errs, m[1])
		}
	}
	if n == 0 {
		t.Fatal("the README shows no view specification")
	}
}
