package viewdefs

import (
	"encoding/json"
	"regexp"
	"strings"
	"testing"
)

func TestDataPageEmbedsJSONSafely(t *testing.T) {
	data := json.RawMessage(`{"a":"</script><script>alert(1)</script>","n":[1,2]}`)
	page, err := DataPage("genui <state>", "desc & more", data)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(page, "</script><script>alert") || strings.Contains(page, "genui <state>") {
		t.Fatalf("hostile text not escaped:\n%s", page)
	}
	m := regexp.MustCompile(`(?s)<script type="application/json" id="genui-data">(.*?)</script>`).FindStringSubmatch(page)
	if m == nil {
		t.Fatal("no data block")
	}
	var got map[string]any
	if err := json.Unmarshal([]byte(m[1]), &got); err != nil {
		t.Fatalf("data block is not JSON: %v\n%s", err, m[1])
	}
	if got["a"] != "</script><script>alert(1)</script>" {
		t.Fatalf("data changed: %v", got)
	}
	if _, err := DataPage("x", "", json.RawMessage(`{bad`)); err == nil {
		t.Fatal("invalid JSON accepted")
	}
}
