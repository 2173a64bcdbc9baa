package gen

import (
	"encoding/json"
	"regexp"
	"strings"
	"testing"
)

// titleHeadingRE is a short markdown heading (up to three words) over more
// text: an error message's title in any language ("## 錯誤"), which the
// error banner says before the message, without its markers.
var titleHeadingRE = regexp.MustCompile(`\A\s*#{1,6}[ \t]+\S+(?:[ \t]+\S+){0,2}[ \t]*#*[ \t]*\n\s*\S`)

// errorTextMessage is the message an error page must lead with for an
// isError text, before cleanErrorMessage's prefixes: the message of a JSON
// error object ({"success": false, "error": "no such table: x"}; {"error":
// {"message": ...}}), or a short title heading's words before the text under
// it ("錯誤: ..."; an English "### Error" is cleanErrorMessage's to drop; a
// longer heading keeps its words, without the markers).
func errorTextMessage(s string) string {
	var obj map[string]any
	if json.Unmarshal([]byte(strings.TrimSpace(s)), &obj) == nil {
		for _, k := range []string{"error", "message", "errorMessage", "error_message", "detail", "reason", "errors"} {
			v := obj[k]
			if a, ok := v.([]any); ok && len(a) > 0 {
				v = a[0]
			}
			if o, ok := v.(map[string]any); ok {
				if m, ok := o["message"].(string); ok {
					v = m
				} else {
					v = o["error"]
				}
			}
			if m, ok := v.(string); ok && strings.TrimSpace(m) != "" {
				if q := quotedErrorMessages(strings.TrimSpace(m)); q != "" {
					return q
				}
				return strings.TrimSpace(m)
			}
		}
	}
	if titleHeadingRE.MatchString(s) && !errHeadingRE.MatchString(s) {
		head, rest, _ := strings.Cut(strings.TrimLeft(s, " \t\r\n"), "\n")
		title := strings.TrimSpace(strings.TrimRight(headingMarksRE.ReplaceAllString(head, ""), "# \t"))
		return title + ": " + strings.TrimSpace(rest)
	}
	if errHeadingRE.MatchString(s) {
		return s
	}
	return headingMarksRE.ReplaceAllString(s, "")
}

// quotedErrorMessages is the messages of an error message that is itself
// JSON text (a validator's issues: [{"code": ..., "message": ...}]), one a
// line, or "" when it is not such text.
func quotedErrorMessages(s string) string {
	var v any
	if !strings.HasPrefix(s, "[") && !strings.HasPrefix(s, "{") || json.Unmarshal([]byte(s), &v) != nil {
		return ""
	}
	list, ok := v.([]any)
	if !ok {
		list = []any{v}
	}
	var ms []string
	for _, x := range list {
		o, _ := x.(map[string]any)
		m, ok := o["message"].(string)
		if !ok {
			m, _ = o["error"].(string)
		}
		if m = strings.TrimSpace(m); m != "" {
			ms = append(ms, m)
		}
	}
	return strings.Join(ms, "\n")
}

// headingMarksRE is the markers of a heading that starts the text.
var headingMarksRE = regexp.MustCompile(`\A\s*#{1,6}[ \t]+`)

// TestErrorTextMessage: what the corpus's error invariant expects of JSON
// error objects and titled messages.
func TestErrorTextMessage(t *testing.T) {
	for in, want := range map[string]string{
		"{\n  \"success\": false,\n  \"error\": \"no such table: invoices\",\n  \"code\": \"EXECUTION_ERROR\"\n}": "no such table: invoices",
		`{"error":{"code":"SQLITE_ERROR","message":"near \"SELEC\": syntax error"}}`:                              `near "SELEC": syntax error`,
		"## 錯誤\n\n找不到ID為 `x` 的任務。":                                                                                "錯誤: 找不到ID為 `x` 的任務。",
		"### Error\nError: boom":                "### Error\nError: boom",
		"## A heading of many words here\nbody": "A heading of many words here\nbody",
		"plain failure":                         "plain failure",
		`{"error":"[\n  {\n    \"code\": \"invalid_enum_value\",\n    \"path\": [\"status\"],\n    \"message\": \"Invalid enum value. Expected 'todo', received 'shipped'\"\n  }\n]"}`: "Invalid enum value. Expected 'todo', received 'shipped'",
	} {
		if got := errorTextMessage(in); got != want {
			t.Errorf("errorTextMessage(%q) = %q, want %q", in, got, want)
		}
	}
}
