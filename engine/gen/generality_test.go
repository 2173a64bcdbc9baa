package gen

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/genui-dev/genui/internal/uicorpus"
)

// Rules are general (issue 33): the code that generates and renders the
// offline pages never names a server of the recorded corpus or one of its
// tools, so nothing is tuned to one server. Searched: every source of the
// pages (viewdefs: scripts, styles, templates, Go; not the minified build,
// the vendored parser or the README) and the generator's Go (engine/gen,
// not its tests).
//
// What counts as a name: every tool name with an underscore or a hyphen
// (git_log, browser_navigate, read_multiple_files: identifiers nobody
// writes by chance), matched as a whole identifier and case-sensitive;
// every server name and npm package, as a whole word in any case. Tool
// names that are one plain word (search, fetch, run) are words, not names,
// and are not searched.

// generalWords are corpus names that are also the general word or format
// the code means, each with its reason (name -> reason).
var generalWords = map[string]string{
	"git":   "git's formats (commit logs, `diff --git` patches, hashes) are read from any server's text",
	"time":  "an English word and Go's package",
	"fetch": "the browser's fetch API, which the generator's checks forbid",
	// textdata.js's search-output reader names the programs whose output format it reads.
	"ripgrep": "the `path:line:text` format of ripgrep, grep -n and vimgrep, read from any server's text",
	// Held-out server names that are also words the code means.
	"files": "an English word",
	"calc":  "CSS's calc()",
	"bash":  "the shell, one of the words a tool's name may hold when its output is a terminal's",
}

func TestGeneratorNamesNoCorpusServer(t *testing.T) {
	servers, err := uicorpus.Load(uicorpus.Dir())
	if err != nil {
		t.Fatal(err)
	}
	// The held-out split's names too: the generator must not know them either.
	held, err := uicorpus.Load(uicorpus.HeldOutDir())
	if err != nil {
		t.Fatal(err)
	}
	servers = append(servers, held...)
	root := filepath.Join(uicorpus.Dir(), "..", "..")
	type name struct {
		re     *regexp.Regexp
		lit    string // the name in lower case: a file without it cannot match
		what   string
		server string
	}
	var names []name
	seen := map[string]bool{}
	word := func(s, what, server string) {
		if s == "" || seen[s] || generalWords[strings.ToLower(s)] != "" {
			return
		}
		seen[s] = true
		names = append(names, name{regexp.MustCompile(`(?i)(?:^|[^\w@/-])` + regexp.QuoteMeta(s) + `(?:$|[^\w-])`), strings.ToLower(s), what, server})
	}
	toolRE := regexp.MustCompile(`[_-]`)
	for _, s := range servers {
		word(s.Name, "server", s.Name)
		word(s.Package, "package", s.Name)
		for _, raw := range s.Tools {
			n := toolName(raw)
			if n == "" || !toolRE.MatchString(n) || seen[n] {
				continue
			}
			seen[n] = true
			names = append(names, name{regexp.MustCompile(`(?:^|[^\w-])` + regexp.QuoteMeta(n) + `(?:$|[^\w-])`), strings.ToLower(n), "tool", s.Name})
		}
	}
	if len(names) < 100 {
		t.Fatalf("only %d corpus names to look for", len(names))
	}
	var files []string
	for _, pattern := range []string{"viewdefs/*.js", "viewdefs/*.css", "viewdefs/*.tmpl", "viewdefs/*.go", "engine/gen/*.go"} {
		m, err := filepath.Glob(filepath.Join(root, pattern))
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range m {
			if !strings.HasSuffix(f, "_test.go") {
				files = append(files, f)
			}
		}
	}
	if len(files) < 20 {
		t.Fatalf("only %d sources found under %s", len(files), root)
	}
	var found []string
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		// Only the names the file holds at all are matched line by line
		// (the regexps on every line of every file take minutes under -race).
		lower := strings.ToLower(string(b))
		var in []name
		for _, n := range names {
			if strings.Contains(lower, n.lit) {
				in = append(in, n)
			}
		}
		for i, line := range strings.Split(string(b), "\n") {
			for _, n := range in {
				if n.re.MatchString(line) {
					rel, _ := filepath.Rel(root, f)
					found = append(found, rel+":"+strconv.Itoa(i+1)+": names "+n.server+"'s "+n.what+": "+strings.TrimSpace(line))
				}
			}
		}
	}
	sort.Strings(found)
	for _, s := range found {
		t.Error(s)
	}
}

// toolName is the name of a raw tools/list entry.
func toolName(raw json.RawMessage) string {
	var d struct {
		Name string `json:"name"`
	}
	_ = json.Unmarshal(raw, &d)
	return d.Name
}
