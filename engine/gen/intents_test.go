package gen

import (
	"reflect"
	"strings"
	"testing"

	"github.com/genui-dev/genui/viewdefs"
)

func TestParseIntents(t *testing.T) {
	type cfg = viewdefs.ViewConfig
	tests := []struct {
		name    string
		in      []string
		want    cfg
		unknown []string // the quoted pieces reported as not understood
	}{
		{"nothing", nil, cfg{}, nil},
		{"empty and filler", []string{"", "  please  ", "thanks!"}, cfg{}, nil},
		{"the issue's example", []string{"dark theme, show only name and price, 25 per page"},
			cfg{Theme: "dark", Columns: []string{"name", "price"}, PageSize: 25}, nil},
		{"case and punctuation", []string{"DARK MODE!!! Show ONLY Name, Price. 25 Per Page."},
			cfg{Theme: "dark", Columns: []string{"name", "price"}, PageSize: 25}, nil},
		{"light theme phrasings", []string{"use the light theme"}, cfg{Theme: "light"}, nil},
		{"make it dark", []string{"make it dark"}, cfg{Theme: "dark"}, nil},
		{"night mode", []string{"night mode please"}, cfg{Theme: "dark"}, nil},
		{"theme colon", []string{"theme: light"}, cfg{Theme: "light"}, nil},
		{"later refinement overrides", []string{"dark theme", "20 per page", "light mode"}, cfg{Theme: "light", PageSize: 20}, nil},
		{"later in the same text overrides", []string{"dark theme, no wait, light theme"}, cfg{Theme: "light"}, []string{"no wait"}},
		{"view as table", []string{"show it as a table"}, cfg{View: "table"}, nil},
		{"cards view", []string{"Cards view"}, cfg{View: "cards"}, nil},
		{"card layout", []string{"use a card layout"}, cfg{View: "cards"}, nil},
		{"bullet list", []string{"display as a bulleted list"}, cfg{View: "list"}, nil},
		{"raw json", []string{"just raw JSON"}, cfg{View: "json"}, nil},
		{"a chart", []string{"I want a chart"}, cfg{View: "chart"}, nil},
		{"graph word", []string{"graph"}, cfg{View: "chart"}, nil},
		{"chart with fields", []string{"chart high and low over date"}, cfg{View: "chart", ChartX: "date", ChartY: []string{"high", "low"}}, nil},
		{"plot by", []string{"Plot price by created"}, cfg{View: "chart", ChartX: "created", ChartY: []string{"price"}}, nil},
		{"axes", []string{"x axis: date, y axis: high"}, cfg{ChartX: "date", ChartY: []string{"high"}}, nil},
		{"axes short", []string{"x=day; y=temp"}, cfg{ChartX: "day", ChartY: []string{"temp"}}, nil},
		{"on the axis", []string{"put created on the x axis and price on the y-axis"}, cfg{ChartX: "created", ChartY: []string{"price"}}, nil},
		{"columns colon", []string{"columns: a, b, c"}, cfg{Columns: []string{"a", "b", "c"}}, nil},
		{"columns order kept", []string{"Columns: price, name"}, cfg{Columns: []string{"price", "name"}}, nil},
		{"only show", []string{"only show the name and price columns"}, cfg{Columns: []string{"name", "price"}}, nil},
		{"show columns", []string{"show columns id, name"}, cfg{Columns: []string{"id", "name"}}, nil},
		{"quoted column", []string{`show only "In Stock", name`}, cfg{Columns: []string{"in stock", "name"}}, nil},
		{"columns replaced", []string{"columns: a, b", "columns: c"}, cfg{Columns: []string{"c"}}, nil},
		{"hide", []string{"hide id and created"}, cfg{Hide: []string{"id", "created"}}, nil},
		{"hide accumulates", []string{"hide id", "remove the created column"}, cfg{Hide: []string{"id", "created"}}, nil},
		{"hide after columns", []string{"columns: id, name, price", "hide id"}, cfg{Columns: []string{"name", "price"}, Hide: []string{"id"}}, nil},
		{"all columns resets", []string{"show only name", "hide id", "show all columns"}, cfg{}, nil},
		{"page size phrasings 1", []string{"page size 50"}, cfg{PageSize: 50}, nil},
		{"page size phrasings 2", []string{"Page-size: 10"}, cfg{PageSize: 10}, nil},
		{"page size phrasings 3", []string{"100 rows per page"}, cfg{PageSize: 100}, nil},
		{"page size phrasings 4", []string{"show 20 rows at a time"}, cfg{PageSize: 20}, nil},
		{"page size phrasings 5", []string{"paginate by 30"}, cfg{PageSize: 30}, nil},
		{"page size phrasings 6", []string{"15 items/page"}, cfg{PageSize: 15}, nil},
		{"title colon", []string{"title: My Weather"}, cfg{Title: "My Weather"}, nil},
		{"title quoted with comma", []string{`title "Sales, 2024", dark`}, cfg{Title: "Sales, 2024", Theme: "dark"}, nil},
		{"call it", []string{"Call it Forecast Board."}, cfg{Title: "Forecast Board"}, nil},
		{"rename to", []string{"rename it to Products"}, cfg{Title: "Products"}, nil},
		{"sort desc", []string{"sort by price descending"}, cfg{Sort: "price desc"}, nil},
		{"sort highest first", []string{"order by price, highest first"}, cfg{Sort: "price asc"}, []string{"highest first"}},
		{"sort default asc", []string{"sorted by name"}, cfg{Sort: "name asc"}, nil},
		{"sort newest first", []string{"sort by created newest first"}, cfg{Sort: "created desc"}, nil},
		{"unknown alone", []string{"make it sparkle"}, cfg{}, []string{"make it sparkle"}},
		{"unknown next to known", []string{"make it sparkle and use dark mode"}, cfg{Theme: "dark"}, []string{"make it sparkle"}},
		{"unknown does not leak into a column list", []string{"show only name and price and make it sparkle"},
			cfg{Columns: []string{"name", "price"}}, []string{"make it sparkle"}},
		{"several unknowns", []string{"rounded corners; add a logo", "20 per page"}, cfg{PageSize: 20}, []string{"rounded corners", "add a logo"}},
		// Issue 13's refinements.
		{"hide the form", []string{"hide the form"}, cfg{Form: "hidden"}, nil},
		{"hide the form keeps hiding columns", []string{"hide the form and the id column"}, cfg{Form: "hidden"}, []string{"the id column"}},
		{"hide form and a column", []string{"hide the form, hide id"}, cfg{Form: "hidden", Hide: []string{"id"}}, nil},
		{"collapse inputs", []string{"collapse the inputs"}, cfg{Form: "hidden"}, nil},
		{"no form", []string{"no form please"}, cfg{Form: "hidden"}, nil},
		{"show the form again", []string{"hide the form", "show the form"}, cfg{Form: "shown"}, nil},
		{"as cards", []string{"show it as cards"}, cfg{View: "cards"}, nil},
		{"as a list", []string{"as a list"}, cfg{View: "list"}, nil},
		{"table with columns", []string{"as a table with name and size"}, cfg{View: "table", Columns: []string{"name", "size"}}, nil},
		{"cards with fields", []string{"cards with name, role"}, cfg{View: "cards", Columns: []string{"name", "role"}}, nil},
		{"bar chart", []string{"bar chart"}, cfg{View: "chart", Chart: "bar"}, nil},
		{"as a bar chart", []string{"show it as a bar chart"}, cfg{View: "chart", Chart: "bar"}, nil},
		{"bar chart with fields", []string{"bar chart of revenue by month"}, cfg{View: "chart", Chart: "bar", ChartX: "month", ChartY: []string{"revenue"}}, nil},
		{"bar chart of a field", []string{"make it a bar chart of size"}, cfg{View: "chart", Chart: "bar", ChartY: []string{"size"}}, nil},
		{"line chart", []string{"use a line chart"}, cfg{View: "chart", Chart: "line"}, nil},
		{"histogram", []string{"histogram"}, cfg{View: "chart", Chart: "bar"}, nil},
		{"monospace", []string{"monospace"}, cfg{Mono: true}, nil},
		{"monospace font", []string{"use a monospace font"}, cfg{Mono: true}, nil},
		{"fixed width", []string{"fixed-width text"}, cfg{Mono: true}, nil},
		{"terminal style", []string{"terminal style"}, cfg{Mono: true}, nil},
		{"no monospace", []string{"monospace", "no monospace"}, cfg{}, nil},
		{"bigger font", []string{"bigger font"}, cfg{FontSize: 16}, nil},
		{"larger text twice", []string{"larger text", "make the font bigger"}, cfg{FontSize: 18}, nil},
		{"much bigger", []string{"much bigger font"}, cfg{FontSize: 18}, nil},
		{"smaller font", []string{"smaller font"}, cfg{FontSize: 12}, nil},
		{"font size px", []string{"font size 15px"}, cfg{FontSize: 15}, nil},
		{"px font", []string{"16px text"}, cfg{FontSize: 16}, nil},
		{"zoom in", []string{"zoom in"}, cfg{FontSize: 16}, nil},
		{"normal font size", []string{"bigger font", "normal font size"}, cfg{}, nil},
		{"show the relations too", []string{"show the relations too"}, cfg{Show: []string{"relations"}}, nil},
		{"show a hidden field again", []string{"hide id and size", "show size too"}, cfg{Hide: []string{"id"}, Show: []string{"size"}}, nil},
		{"show adds to columns", []string{"columns: name", "also show size"}, cfg{Columns: []string{"name", "size"}, Show: []string{"size"}}, nil},
		{"include a field", []string{"include the created field"}, cfg{Show: []string{"created"}}, nil},
		{"show a field", []string{"show relations"}, cfg{Show: []string{"relations"}}, nil},
		{"the issue's refusals", []string{"hide the form", "show it as cards", "as a table with name and size", "monospace", "bar chart", "bigger font", "show the relations too"},
			cfg{Form: "hidden", View: "chart", Chart: "bar", Columns: []string{"name", "size", "relations"}, Mono: true, FontSize: 16, Show: []string{"relations"}}, nil},
		{"reset", []string{"dark theme, 20 per page", "reset", "cards"}, cfg{View: "cards"}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, warnings := ParseIntents(tt.in)
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("ParseIntents(%q)\n got  %+v\n want %+v", tt.in, got, tt.want)
			}
			var unknown []string
			for _, w := range warnings {
				if s, ok := strings.CutPrefix(w, "not understood offline: "); ok {
					unknown = append(unknown, strings.Trim(s, `"`))
				} else {
					t.Errorf("unexpected warning %q", w)
				}
			}
			if !reflect.DeepEqual(unknown, tt.unknown) {
				t.Errorf("not understood = %q, want %q", unknown, tt.unknown)
			}
			if err := got.Check(); err != nil {
				t.Errorf("config does not pass Check: %v", err)
			}
		})
	}
}

func TestParseIntentsFontSizeBounds(t *testing.T) {
	cfg, w := ParseIntents([]string{"font size 90"})
	if cfg.FontSize != viewdefs.MaxFontSize || len(w) != 1 || !strings.Contains(w[0], "above the maximum") {
		t.Errorf("font size 90: cfg %+v, warnings %q", cfg, w)
	}
	cfg, w = ParseIntents([]string{"font size 3"})
	if cfg.FontSize != 0 || len(w) != 1 || !strings.Contains(w[0], "ignored") {
		t.Errorf("font size 3: cfg %+v, warnings %q", cfg, w)
	}
	cfg, _ = ParseIntents([]string{"much smaller font", "much smaller font", "much smaller font"})
	if cfg.FontSize != viewdefs.MinFontSize {
		t.Errorf("three steps down: font size %d, want the minimum %d", cfg.FontSize, viewdefs.MinFontSize)
	}
}

func TestParseIntentsPageSizeBounds(t *testing.T) {
	cfg, w := ParseIntents([]string{"5000 per page"})
	if cfg.PageSize != viewdefs.MaxPageSize || len(w) != 1 || !strings.Contains(w[0], "above the maximum") {
		t.Errorf("5000 per page: cfg %+v, warnings %q", cfg, w)
	}
	cfg, w = ParseIntents([]string{"page size 0"})
	if cfg.PageSize != 0 || len(w) != 1 || !strings.Contains(w[0], "ignored") {
		t.Errorf("page size 0: cfg %+v, warnings %q", cfg, w)
	}
}

func TestOfflineAppliesRefinements(t *testing.T) {
	res, err := NewOffline().Generate(t.Context(), Request{
		Tool:        Tool{Name: "datastore_search", Title: "Search", InputSchema: []byte(`{"type":"object"}`)},
		Refinements: []string{"dark theme, title: Product <Browser>", "make it sparkle"},
	})
	if err != nil {
		t.Fatal(err)
	}
	if res.UIType != UITypeOfflineRich {
		t.Errorf("UIType = %q", res.UIType)
	}
	if want := []string{`not understood offline: "make it sparkle"`}; !reflect.DeepEqual(res.Warnings, want) {
		t.Errorf("Warnings = %q, want %q", res.Warnings, want)
	}
	for _, want := range []string{`<html lang="en" data-theme="dark">`, `<h1 id="tool-title">Product &lt;Browser&gt;</h1>`, `id="view-config">{"theme":"dark","title":"Product \u003cBrowser\u003e"}`} {
		if !strings.Contains(res.HTML, want) {
			t.Errorf("page lacks %s", want)
		}
	}
	if p := Validate(res.HTML); len(p) > 0 {
		t.Errorf("Validate: %q", p)
	}
}
