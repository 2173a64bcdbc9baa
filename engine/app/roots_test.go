package app

import (
	"path/filepath"
	"testing"
	"time"

	"github.com/genui-dev/genui/config"
)

// TestRootsAndAnswerTimeout: "roots" (folders and file:// URIs) and
// "answerTimeout" reach the engine; unset roots stay unset (none: genui
// declares no roots of its own), [] means none too.
func TestRootsAndAnswerTimeout(t *testing.T) {
	dir := t.TempDir()
	sub := filepath.Join(dir, "proj")
	for _, c := range []struct {
		file     string
		want     []string // root URIs; nil = unset
		wantName string
		timeout  time.Duration
	}{
		{`{"dir": "` + filepath.ToSlash(dir) + `", "roots": ["` + filepath.ToSlash(sub) + `", "file:///srv/data/"], "answerTimeout": "45s"}`,
			[]string{"file://" + filepath.ToSlash(sub), "file:///srv/data/"}, "proj", 45 * time.Second},
		{`{"dir": "` + filepath.ToSlash(dir) + `", "roots": []}`, []string{}, "", 5 * time.Minute},
		{`{"dir": "` + filepath.ToSlash(dir) + `"}`, nil, "", 5 * time.Minute},
	} {
		s, err := ConfigureInput(nil, config.Input{File: writeConfig(t, c.file), LookupEnv: env{}.lookup})
		if err != nil {
			t.Fatal(err)
		}
		eo, err := s.EngineOptions()
		if err != nil {
			t.Fatal(err)
		}
		s.Close()
		if (c.want == nil) != (eo.Roots == nil) || len(eo.Roots) != len(c.want) {
			t.Fatalf("%s: roots %+v, want %v", c.file, eo.Roots, c.want)
		}
		for i, u := range c.want {
			if eo.Roots[i].URI != u {
				t.Errorf("%s: root %d = %+v, want %s", c.file, i, eo.Roots[i], u)
			}
		}
		if c.wantName != "" && eo.Roots[0].Name != c.wantName {
			t.Errorf("root name %q, want %q", eo.Roots[0].Name, c.wantName)
		}
		if eo.AnswerTimeout != c.timeout {
			t.Errorf("%s: answerTimeout %s, want %s", c.file, eo.AnswerTimeout, c.timeout)
		}
	}
}
