package browsertest

import (
	"encoding/json"
	"net/http"

	"github.com/genui-dev/genui/pagepack"
)

// PageBlocksPath is where a test host's server answers the pages' reads of
// their deferred blocks (ServePageBlocks).
const PageBlocksPath = "/genui-deferred"

// ServePageBlocks answers GET PageBlocksPath?uri=... with the resources/read
// result genui's MCP server gives for an offline page's deferred block (its
// rich views: pagepack.Deferred, as a blob), or 404 for a block this process
// does not hold: a test host's onReadResource fetches it from here.
func ServePageBlocks(w http.ResponseWriter, r *http.Request) { ServePageBlocksFrom(nil)(w, r) }

// ServePageBlocksFrom is ServePageBlocks answering first from blocks (URI to
// blob: the blocks another build's pages read, which this process does not
// hold).
func ServePageBlocksFrom(blocks map[string]string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		uri := r.URL.Query().Get("uri")
		blob, ok := blocks[uri]
		if !ok {
			blob, ok = pagepack.Deferred(uri)
		}
		if !ok {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(map[string]any{"contents": []any{map[string]any{"uri": uri, "mimeType": pagepack.DeferredMIME, "blob": blob}}})
	}
}
