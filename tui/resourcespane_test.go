package tui

import (
	"encoding/base64"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/genui-dev/genui/engine/contract"
)

func strPtr(s string) *string { return &s }

func resourceStub(hs *hostStub) {
	hs.resources = []contract.Resource{
		{URI: "demo://text/1", Name: "Notes", MIMEType: "text/plain", Description: "some notes", Raw: json.RawMessage(`{"uri":"demo://text/1","name":"Notes"}`)},
		{URI: "demo://blob/2", Name: "Picture", MIMEType: "application/octet-stream"},
	}
	hs.templates = []contract.ResourceTemplate{{URITemplate: "demo://item/{id}", Name: "Item", Arguments: []string{"id"}}}
	hs.contents = map[string]contract.ResourceContents{
		"demo://text/1": {URI: "demo://text/1", Contents: []contract.ResourceContent{{URI: "demo://text/1", MIMEType: "text/plain", Text: strPtr("line one\nline two")}}},
		"demo://blob/2": {URI: "demo://blob/2", Contents: []contract.ResourceContent{{URI: "demo://blob/2", MIMEType: "application/octet-stream",
			Blob: base64.StdEncoding.EncodeToString([]byte{0, 1, 2, 250, 251})}}},
		"demo://item/42": {URI: "demo://item/42", Contents: []contract.ResourceContent{{URI: "demo://item/42", Text: strPtr(`{"id":42}`)}}},
	}
	hs.prompts = []contract.Prompt{{Name: "simple"}, {Name: "complex", Description: "with arguments",
		Arguments: []contract.PromptArgument{{Name: "temperature", Required: true}, {Name: "style"}}}}
}

// TestResourcesPane: the roots, resources and templates show; enter reads
// a text resource into the viewer; a blob shows its size and s saves the
// decoded bytes; a template's arguments are filled in and what it names is
// read; s subscribes and a resource-updated event marks the row.
func TestResourcesPane(t *testing.T) {
	dir := t.TempDir()
	synctest.Test(t, func(t *testing.T) {
		hs := newHostStub()
		resourceStub(hs)
		d := newDriver(t, hs.stubAPI, func(o *Options) { o.API = hs; o.ExportDir = dir })
		defer d.finish()
		d.key("9")
		if !d.m.showing(paneResources) {
			t.Fatalf("9 shows tab %d", d.m.tab)
		}
		mustContain(t, d.screen(), "Roots", "file:///work/project  project", "Resources (2)", "Notes", "demo://text/1", "Resource templates (1)",
			"demo://item/{id}", "description some notes")
		d.key("l")
		d.key("enter")
		mustContain(t, d.screen(), "Resource demo://text/1", "line one", "line two")
		d.key("esc")
		d.key("down")
		d.key("enter")
		mustContain(t, d.screen(), "blob, 5 bytes · s saves it")
		d.key("s")
		mustContain(t, d.screen(), "save to: "+filepath.Join(dir, "2"))
		d.key("enter")
		b, err := os.ReadFile(filepath.Join(dir, "2"))
		if err != nil || string(b) != string([]byte{0, 1, 2, 250, 251}) {
			t.Fatalf("saved %v %v", b, err)
		}
		mustContain(t, d.m.status, "saved 5 bytes to "+filepath.Join(dir, "2"))
		d.key("esc")
		d.key("s") // subscribe to the blob
		if c := hs.called("SubscribeResource"); len(c) != 1 || c[0] != "SubscribeResource demo://blob/2" {
			t.Fatalf("subscribe %v", c)
		}
		d.stub.events <- contract.Event{Time: time.Date(2026, 1, 2, 3, 4, 9, 0, time.UTC), Kind: contract.EventResourceUpdated, Detail: &contract.ResourceUpdated{URI: "demo://blob/2"}}
		synctest_wait(d)
		mustContain(t, d.screen(), "● subscribed", "↻ updated 03:04:09 ×1")
		d.key("s")
		if c := hs.called("UnsubscribeResource"); len(c) != 1 {
			t.Fatalf("unsubscribe %v", c)
		}
		mustNotContain(t, d.screen(), "● subscribed")
		d.key("down")
		d.key("enter")
		mustContain(t, d.screen(), "Read Item", "id*")
		d.typeText("42")
		d.key("enter")
		if c := hs.called("ReadResource demo://item/42"); len(c) != 1 {
			t.Fatalf("template read %v", hs.called("ReadResource"))
		}
		mustContain(t, d.screen(), "Resource demo://item/42", `"id": 42`)
		d.key("esc")
		// The upstream's list changed: loaded again.
		n := len(hs.called("Resources"))
		d.stub.events <- contract.Event{Kind: contract.EventListChanged, Detail: &contract.ListChanged{List: "resources"}}
		synctest_wait(d)
		if len(hs.called("Resources")) != n+1 {
			t.Fatalf("list-changed did not reload: %v", hs.called("Resources"))
		}
	})
}

// TestPromptsPane: enter on a prompt without arguments gets it; one with
// arguments asks for them (required ones first) and shows the messages.
func TestPromptsPane(t *testing.T) {
	inHostBubble(t, func(t *testing.T, d *driver, hs *hostStub) {
		resourceStub(hs)
		d.key("0")
		mustContain(t, d.screen(), "Prompts (2)", "simple", "complex", "2 argument(s)")
		d.key("l")
		d.key("enter")
		mustContain(t, d.screen(), "Prompt simple", "[0] user", "prompt simple with null")
		d.key("esc")
		d.key("down")
		d.key("enter")
		mustContain(t, d.screen(), "Get prompt complex", "temperature*", "style")
		d.key("enter")
		mustContain(t, d.m.status, "fix temperature first")
		d.typeText("hot")
		d.key("enter")
		if c := hs.called("GetPrompt"); len(c) != 2 || c[1] != `GetPrompt complex {"temperature":"hot"}` {
			t.Fatalf("get prompt %v", c)
		}
		mustContain(t, d.screen(), `prompt complex with {"temperature":"hot"}`)
	})
}

// TestResultResourceLinks: o in the Call pane reads a result's resource
// link into the viewer; with several, a picker chooses; an embedded blob
// opens as it came.
func TestResultResourceLinks(t *testing.T) {
	inHostBubble(t, func(t *testing.T, d *driver, hs *hostStub) {
		resourceStub(hs)
		d.key("c")
		d.key("esc")
		tr := d.m.tool("alpha")
		tr.result = &callResult{res: contract.CallResult{Result: json.RawMessage(`{"content":[{"type":"text","text":"see"},` +
			`{"type":"resource_link","uri":"demo://text/1","name":"Notes"}]}`)}}
		tr.result.lines = resultLines(tr.result.res.Result)
		mustContain(t, d.screen(), "resource_link demo://text/1  (o opens it)")
		d.key("o")
		if c := hs.called("ReadResource"); len(c) != 1 || c[0] != "ReadResource demo://text/1" {
			t.Fatalf("read %v", c)
		}
		mustContain(t, d.screen(), "line one")
		d.key("esc")
		tr.result.res.Result = json.RawMessage(`{"content":[{"type":"resource_link","uri":"demo://text/1"},` +
			`{"type":"resource","resource":{"uri":"demo://embedded","mimeType":"image/png","blob":"` + base64.StdEncoding.EncodeToString([]byte("PNGDATA")) + `"}}]}`)
		d.key("o")
		mustContain(t, d.screen(), "Open a resource of the result", "content[0] link demo://text/1", "content[1] embedded demo://embedded")
		d.key("down")
		d.key("enter")
		s := d.screen()
		mustContain(t, s, "Resource demo://embedded", "blob, 7 bytes")
		if strings.Count(strings.Join(hs.called("ReadResource"), "\n"), "embedded") != 0 {
			t.Fatal("an embedded resource was read upstream")
		}
	})
}

// TestResultAnnotationsAndEmbeddedResources: a content block's annotations
// are badges on its head line; an embedded blob shows its size, not its
// base64, and an embedded text its text.
func TestResultAnnotationsAndEmbeddedResources(t *testing.T) {
	blob := base64.StdEncoding.EncodeToString([]byte(strings.Repeat("x", 3000)))
	lines := strings.Join(resultLines(json.RawMessage(`{"content":[`+
		`{"type":"text","text":"hi","annotations":{"audience":["user","assistant"],"priority":0.9,"lastModified":"2025-01-02T03:04:05Z"}},`+
		`{"type":"resource","resource":{"uri":"demo://b","mimeType":"image/png","blob":"`+blob+`"}},`+
		`{"type":"resource","resource":{"uri":"demo://t","mimeType":"text/plain","text":"embedded words"}}]}`)), "\n")
	for _, want := range []string{"content[0] text [audience user, assistant · priority 0.9 · modified 2025-01-02T03:04:05Z]",
		"content[1] resource demo://b · image/png · blob, 3.9KB base64  (o opens it", "content[2] resource demo://t · text/plain  (o opens it)", "embedded words"} {
		if !strings.Contains(lines, want) {
			t.Errorf("result lacks %q:\n%s", want, lines)
		}
	}
	if strings.Contains(lines, blob[:40]) {
		t.Error("the blob's base64 is shown")
	}
}

// TestListsKeepTheCursorOnReload: when the server's list changes and the
// pane loads it again, the cursor stays on the same prompt or resource,
// not the same index.
func TestListsKeepTheCursorOnReload(t *testing.T) {
	inHostBubble(t, func(t *testing.T, d *driver, hs *hostStub) {
		resourceStub(hs)
		d.key("0")
		d.key("l")
		d.key("down") // complex
		hs.prompts = append([]contract.Prompt{{Name: "new-first"}}, hs.prompts...)
		d.stub.events <- contract.Event{Kind: contract.EventListChanged, Detail: &contract.ListChanged{List: "prompts"}}
		synctest_wait(d)
		mustContain(t, d.screen(), "› complex", "new-first")
		d.key("9")
		d.key("down") // the blob
		hs.resources = append([]contract.Resource{{URI: "demo://new", Name: "New"}}, hs.resources...)
		d.stub.events <- contract.Event{Kind: contract.EventListChanged, Detail: &contract.ListChanged{List: "resources"}}
		synctest_wait(d)
		mustContain(t, d.screen(), "› Picture", "New")
	})
}

// TestResultResourceLinkNeverOpener: a result's resource link of any
// scheme (file:, javascript:) is read through MCP (resources/read), never
// handed to the system opener.
func TestResultResourceLinkNeverOpener(t *testing.T) {
	for _, uri := range []string{"file:///etc/passwd", "javascript:alert(1)"} {
		inHostBubble(t, func(t *testing.T, d *driver, hs *hostStub) {
			resourceStub(hs)
			d.key("c")
			d.key("esc")
			tr := d.m.tool("alpha")
			tr.result = &callResult{res: contract.CallResult{Result: json.RawMessage(`{"content":[{"type":"resource_link","uri":"` + uri + `"}]}`)}}
			tr.result.lines = resultLines(tr.result.res.Result)
			d.key("o")
			synctest_wait(d)
			if c := hs.called("ReadResource"); len(c) != 1 || c[0] != "ReadResource "+uri {
				t.Fatalf("read %v", c)
			}
			if c := hs.called("OpenURL"); len(c) != 0 {
				t.Fatalf("the opener got %v", c)
			}
		})
	}
}

// TestResourcesPaneEditsRoots: e in the Resources pane opens the roots,
// comma-separated; what is sent (a folder made absolute, a file:// URI)
// replaces them through SetRoots and the pane shows the new ones; a
// non-file URI is refused before anything is sent.
func TestResourcesPaneEditsRoots(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		hs := newHostStub()
		resourceStub(hs)
		d := newDriver(t, hs.stubAPI, func(o *Options) { o.API = hs })
		defer d.finish()
		d.key("9")
		d.key("l")
		mustContain(t, d.screen(), "file:///work/project  project")
		d.key("e")
		mustContain(t, d.screen(), "Roots", "file:///work/project")
		for range len("file:///work/project") {
			d.key("backspace")
		}
		d.typeText("http://example.com")
		d.key("ctrl+s")
		if c := hs.called("SetRoots"); len(c) != 0 {
			t.Fatalf("a non-file root was sent: %v", c)
		}
		mustContain(t, d.m.status, "a root is a folder or a file:// URI")
		d.key("e")
		for range len("file:///work/project") {
			d.key("backspace")
		}
		d.typeText("/srv/notes, file:///data/photos/")
		d.key("ctrl+s")
		synctest_wait(d)
		c := hs.called("SetRoots")
		want := `SetRoots [{"uri":"file:///srv/notes","name":"notes"},{"uri":"file:///data/photos/","name":"photos"}]`
		if len(c) != 1 || c[0] != want {
			t.Fatalf("SetRoots calls %q, want %q", c, want)
		}
		mustContain(t, d.screen(), "file:///srv/notes  notes", "file:///data/photos/  photos")
		mustContain(t, d.m.status, "roots: 2, sent to the upstream")
	})
}
