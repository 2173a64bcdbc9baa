package engine

import (
	"context"
	"errors"
	"regexp"
	"testing"
	"time"

	"github.com/genui-dev/genui/engine/contract"
	"github.com/genui-dev/genui/engine/gen"
	"github.com/genui-dev/genui/pagepack"
)

// An offline page reads its rich views (pagepack's deferred block) as a
// resource: ReadResource serves the block the page names, as the blob a
// resources/read answer carries, and a block it does not hold is not found
// (a page from another genui build), never the upstream's to answer.
func TestReadResourceServesPageBlocks(t *testing.T) {
	if contract.PageBlockURIPrefix != pagepack.DeferredPrefix {
		t.Fatalf("contract.PageBlockURIPrefix %q is not pagepack.DeferredPrefix %q", contract.PageBlockURIPrefix, pagepack.DeferredPrefix)
	}
	up := newListUpstream("list_items")
	e := startEngine(t, up, gen.NewOffline())
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	ui, err := e.UI(ctx, "list_items")
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`;(` + regexp.QuoteMeta(pagepack.DeferredPrefix) + `[0-9a-f]{32})</script>`).FindStringSubmatch(ui.HTML)
	if m == nil {
		t.Fatal("the offline page names no deferred block")
	}
	c, err := e.ReadResource(ctx, m[1])
	if err != nil {
		t.Fatal(err)
	}
	want, _ := pagepack.Deferred(m[1])
	if len(c.Contents) != 1 || c.Contents[0].Blob != want || c.Contents[0].URI != m[1] || c.Contents[0].MIMEType != pagepack.DeferredMIME || len(c.Raw) == 0 {
		t.Errorf("ReadResource(%s) = %d contents (blob %d bytes, want %d)", m[1], len(c.Contents), len(c.Contents[0].Blob), len(want))
	}
	_, err = e.ReadResource(ctx, pagepack.DeferredPrefix+"0123456789abcdef0123456789abcdef")
	var ce *contract.Error
	if !errors.As(err, &ce) || ce.Code != contract.CodeNotFound {
		t.Errorf("an unknown block: %v; want a not_found error", err)
	}
}

// An offline page names its rich views by their hash, so its cache key
// holds their digest: a page cached by a build whose rich views differ is
// not found (and generated again) instead of naming a block this build
// cannot serve.
func TestOfflineKeyFollowsTheDeferredScripts(t *testing.T) {
	e := startEngine(t, newListUpstream("list_items"), gen.NewOffline())
	tool, ok := e.tools.Get("list_items")
	if !ok {
		t.Fatal("no list_items")
	}
	if v := e.ui.templateVersion(); v != TemplateVersion+"/"+deferredDigest() || len(deferredDigest()) != 12 {
		t.Fatalf("templateVersion %q; want TemplateVersion and the deferred scripts' digest", v)
	}
	before := e.ui.offlineKey(tool)
	saved := deferredDigest
	t.Cleanup(func() { deferredDigest = saved })
	deferredDigest = func() string { return "another-build" }
	if after := e.ui.offlineKey(tool); after == before {
		t.Error("the offline key is the same for pages with other rich views")
	}
}
