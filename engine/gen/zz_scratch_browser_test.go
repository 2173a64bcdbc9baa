package gen

import (
	"testing"
)

func TestZZScratchListing(t *testing.T) {
	f, ui := newFixture(t)
	showRecorded(t, f, ui, "desktop-commander", "list_directory", 1)
	var html string
	f.frameJSON(`(w, d) => d.getElementById("result").innerText.slice(0, 1500)`, &html)
	t.Log(html)
}
