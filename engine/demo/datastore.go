package demo

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
)

const (
	tableRows        = 2000
	defaultPageLimit = 100
	maxPageLimit     = 1000
)

// record is one row of the demo product table.
type record struct {
	ID       int     `json:"id"`
	Name     string  `json:"name"`
	Category string  `json:"category"`
	Price    float64 `json:"price"`
	Quantity int     `json:"quantity"`
	Created  string  `json:"created"`
	InStock  bool    `json:"in_stock"`

	cents int // Price in cents, for exact comparisons
}

// field describes a column the way CKAN's datastore_search does.
type field struct {
	ID   string `json:"id"`
	Type string `json:"type"`
}

var tableFields = []field{
	{"id", "int"},
	{"name", "text"},
	{"category", "text"},
	{"price", "numeric"},
	{"quantity", "int"},
	{"created", "date"},
	{"in_stock", "bool"},
}

func fieldNames() string {
	names := make([]string, len(tableFields))
	for i, f := range tableFields {
		names[i] = f.ID
	}
	return strings.Join(names, ", ")
}

func fieldType(name string) (string, bool) {
	for _, f := range tableFields {
		if f.ID == name {
			return f.Type, true
		}
	}
	return "", false
}

type category struct {
	name                 string
	nouns                []string
	minDollars, maxDolls int
}

var categories = []category{
	{"Books", []string{"Novel", "Atlas", "Cookbook", "Journal", "Anthology", "Field Guide"}, 4, 49},
	{"Electronics", []string{"Headphones", "Charger", "Speaker", "Keyboard", "Monitor", "Webcam"}, 9, 499},
	{"Garden", []string{"Trowel", "Planter", "Hose", "Seed Kit", "Pruner", "Watering Can"}, 2, 89},
	{"Grocery", []string{"Coffee Beans", "Olive Oil", "Tea Sampler", "Honey", "Pasta", "Granola"}, 1, 29},
	{"Home", []string{"Lamp", "Throw Blanket", "Mug", "Candle", "Clock", "Cushion"}, 4, 149},
	{"Outdoors", []string{"Tent", "Backpack", "Lantern", "Sleeping Bag", "Compass", "Hammock"}, 9, 399},
	{"Sports", []string{"Yoga Mat", "Football", "Racket", "Dumbbell", "Jump Rope", "Helmet"}, 4, 199},
	{"Toys", []string{"Puzzle", "Kite", "Robot Kit", "Plush Bear", "Train Set", "Building Blocks"}, 3, 99},
}

var adjectives = []string{
	"Classic", "Compact", "Deluxe", "Eco", "Vintage", "Smart", "Rugged", "Mini",
	"Premium", "Everyday", "Urban", "Nordic", "Solar", "Cozy", "Pro", "Travel",
}

// buildTable generates the 2,000 demo rows. The output depends on nothing
// but this code.
func buildTable() []record {
	r := newRNG(hashString("datastore:products"))
	start := time.Date(2023, time.January, 1, 0, 0, 0, 0, time.UTC)
	rows := make([]record, tableRows)
	for i := range rows {
		c := categories[r.intn(len(categories))]
		cents := (c.minDollars+r.intn(c.maxDolls-c.minDollars+1))*100 + pick(r, []int{99, 99, 49, 95, 0})
		qty := 0
		if r.intn(10) != 0 {
			qty = 1 + r.intn(500)
		}
		rows[i] = record{
			ID:       i + 1,
			Name:     pick(r, adjectives) + " " + pick(r, c.nouns),
			Category: c.name,
			Price:    float64(cents) / 100,
			Quantity: qty,
			Created:  start.AddDate(0, 0, r.intn(1096)).Format(time.DateOnly),
			InStock:  qty > 0,
			cents:    cents,
		}
	}
	return rows
}

// --- query parsing ---

type sortKey struct {
	field string
	desc  bool
}

// parseSort reads "price desc", "name" or "category, price desc".
func parseSort(s string) ([]sortKey, error) {
	var keys []sortKey
	for part := range strings.SplitSeq(s, ",") {
		words := strings.Fields(part)
		if len(words) == 0 {
			continue
		}
		if len(words) > 2 {
			return nil, fmt.Errorf("cannot parse sort %q: use \"field\" or \"field asc|desc\", comma-separated", s)
		}
		if _, ok := fieldType(words[0]); !ok {
			return nil, fmt.Errorf("unknown sort field %q; valid fields: %s", words[0], fieldNames())
		}
		k := sortKey{field: words[0]}
		if len(words) == 2 {
			switch strings.ToLower(words[1]) {
			case "asc":
			case "desc":
				k.desc = true
			default:
				return nil, fmt.Errorf("unknown sort direction %q in %q; use asc or desc", words[1], s)
			}
		}
		keys = append(keys, k)
	}
	return keys, nil
}

func compareBy(a, b *record, f string) int {
	switch f {
	case "id":
		return cmp.Compare(a.ID, b.ID)
	case "name":
		return strings.Compare(a.Name, b.Name)
	case "category":
		return strings.Compare(a.Category, b.Category)
	case "price":
		return cmp.Compare(a.cents, b.cents)
	case "quantity":
		return cmp.Compare(a.Quantity, b.Quantity)
	case "created":
		return strings.Compare(a.Created, b.Created)
	case "in_stock":
		switch {
		case a.InStock == b.InStock:
			return 0
		case b.InStock:
			return -1
		default:
			return 1
		}
	}
	return 0
}

// filter is one field -> accepted values condition; values are already
// converted to the field's type.
type filter struct {
	field  string
	values []any // int, int (cents for price), string or bool
}

func parseFilters(raw map[string]json.RawMessage) ([]filter, error) {
	names := make([]string, 0, len(raw))
	for k := range raw {
		names = append(names, k)
	}
	slices.Sort(names) // stable error messages
	var out []filter
	for _, name := range names {
		typ, ok := fieldType(name)
		if !ok {
			return nil, fmt.Errorf("unknown filter field %q; valid fields: %s", name, fieldNames())
		}
		v := bytes.TrimSpace(raw[name])
		var items []json.RawMessage
		if len(v) > 0 && v[0] == '[' {
			if err := json.Unmarshal(v, &items); err != nil {
				return nil, fmt.Errorf("filter %q: %v", name, err)
			}
		} else {
			items = []json.RawMessage{v}
		}
		f := filter{field: name}
		for _, item := range items {
			val, err := filterValue(name, typ, item)
			if err != nil {
				return nil, err
			}
			f.values = append(f.values, val)
		}
		out = append(out, f)
	}
	return out, nil
}

// filterValue converts a filter value to the field's type. Numbers and
// booleans may also be given as strings, as CKAN allows.
func filterValue(name, typ string, raw json.RawMessage) (any, error) {
	var v any
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	if err := dec.Decode(&v); err != nil {
		return nil, fmt.Errorf("filter %q: %v", name, err)
	}
	text := ""
	switch x := v.(type) {
	case string:
		text = x
	case json.Number:
		text = x.String()
	case bool:
		text = strconv.FormatBool(x)
	default:
		return nil, fmt.Errorf("filter %q expects a %s value or a list of them, got %s", name, typ, brief(raw))
	}
	switch typ {
	case "int":
		f, err := strconv.ParseFloat(strings.TrimSpace(text), 64)
		if err != nil || f != math.Trunc(f) {
			return nil, fmt.Errorf("filter %q expects an integer, got %s", name, brief(raw))
		}
		return int(f), nil
	case "numeric":
		f, err := strconv.ParseFloat(strings.TrimSpace(text), 64)
		if err != nil {
			return nil, fmt.Errorf("filter %q expects a number, got %s", name, brief(raw))
		}
		return int(math.Round(f * 100)), nil
	case "bool":
		b, err := strconv.ParseBool(strings.TrimSpace(text))
		if err != nil {
			return nil, fmt.Errorf("filter %q expects true or false, got %s", name, brief(raw))
		}
		return b, nil
	default: // text, date
		if _, isString := v.(string); !isString {
			return nil, fmt.Errorf("filter %q expects a string, got %s", name, brief(raw))
		}
		return text, nil
	}
}

func (f filter) match(r *record) bool {
	var have any
	switch f.field {
	case "id":
		have = r.ID
	case "name":
		have = r.Name
	case "category":
		have = r.Category
	case "price":
		have = r.cents
	case "quantity":
		have = r.Quantity
	case "created":
		have = r.Created
	case "in_stock":
		have = r.InStock
	}
	return slices.Contains(f.values, have)
}

// --- search ---

type searchResult struct {
	Fields  []field        `json:"fields"`
	Records []record       `json:"records"`
	Total   int            `json:"total"`
	Limit   int            `json:"limit"`
	Offset  int            `json:"offset"`
	Sort    string         `json:"sort,omitempty"`
	Q       string         `json:"q,omitempty"`
	Filters map[string]any `json:"filters,omitempty"`
}

func (st *state) search(a args) (*searchResult, error) {
	q, _, err := a.str("q")
	if err != nil {
		return nil, err
	}
	q = strings.TrimSpace(q)
	sortSpec, _, err := a.str("sort")
	if err != nil {
		return nil, err
	}
	sortSpec = strings.TrimSpace(sortSpec)
	keys, err := parseSort(sortSpec)
	if err != nil {
		return nil, err
	}
	rawFilters, _, err := a.object("filters")
	if err != nil {
		return nil, err
	}
	filters, err := parseFilters(rawFilters)
	if err != nil {
		return nil, err
	}
	limit, ok, err := a.integer("limit")
	if err != nil {
		return nil, err
	}
	if !ok {
		limit = defaultPageLimit
	}
	if limit < 0 || limit > maxPageLimit {
		return nil, fmt.Errorf("limit must be between 0 and %d, got %d", maxPageLimit, limit)
	}
	offset, _, err := a.integer("offset")
	if err != nil {
		return nil, err
	}
	if offset < 0 {
		return nil, fmt.Errorf("offset must be 0 or more, got %d", offset)
	}

	needle := strings.ToLower(q)
	var hits []*record
	for i := range st.table {
		r := &st.table[i]
		if needle != "" && !strings.Contains(strings.ToLower(r.Name), needle) &&
			!strings.Contains(strings.ToLower(r.Category), needle) {
			continue
		}
		matched := true
		for _, f := range filters {
			if !f.match(r) {
				matched = false
				break
			}
		}
		if matched {
			hits = append(hits, r)
		}
	}
	if len(keys) > 0 {
		slices.SortStableFunc(hits, func(x, y *record) int {
			for _, k := range keys {
				c := compareBy(x, y, k.field)
				if k.desc {
					c = -c
				}
				if c != 0 {
					return c
				}
			}
			return cmp.Compare(x.ID, y.ID)
		})
	}

	res := &searchResult{
		Fields:  tableFields,
		Records: []record{},
		Total:   len(hits),
		Limit:   limit,
		Offset:  offset,
		Sort:    sortSpec,
		Q:       q,
	}
	if len(rawFilters) > 0 {
		res.Filters = make(map[string]any, len(rawFilters))
		for k, v := range rawFilters {
			var x any
			_ = json.Unmarshal(v, &x)
			res.Filters[k] = x
		}
	}
	if offset < len(hits) {
		for _, r := range hits[offset:min(offset+limit, len(hits))] {
			res.Records = append(res.Records, *r)
		}
	}
	return res, nil
}

func datastoreTool() mcp.Tool {
	const title = "Search product table"
	return mcp.NewTool("datastore_search",
		mcp.WithToolTitle(title),
		mcp.WithDescription("Search a 2,000-row demo product table the way CKAN's datastore_search does. "+
			"Fields: id (int), name (text), category (text: Books, Electronics, Garden, Grocery, Home, Outdoors, Sports, Toys), "+
			"price (numeric), quantity (int), created (date, YYYY-MM-DD), in_stock (bool). "+
			"Returns the field list, one page of records and the total number of matches."),
		mcp.WithString("q",
			mcp.Description("Case-insensitive text to look for in name and category."),
		),
		mcp.WithObject("filters",
			mcp.Description("Exact-match conditions, field name to value, e.g. {\"category\": \"Toys\", \"in_stock\": true}. A list of values matches any of them. All conditions must hold."),
			mcp.AdditionalProperties(map[string]any{
				"type": []string{"string", "number", "boolean", "array"},
			}),
		),
		mcp.WithString("sort",
			mcp.Description("Sort order: a field name optionally followed by asc or desc, several separated by commas, e.g. \"price desc\" or \"category, name\". Ties are broken by id. Default: table order (by id)."),
		),
		mcp.WithInteger("limit",
			mcp.Description("Maximum number of records to return, 0 to 1000."),
			mcp.Min(0), mcp.Max(maxPageLimit), mcp.DefaultNumber(defaultPageLimit),
		),
		mcp.WithInteger("offset",
			mcp.Description("Number of matching records to skip, for paging."),
			mcp.Min(0), mcp.DefaultNumber(0),
		),
		mcp.WithRawOutputSchema(json.RawMessage(`{
			"type": "object",
			"properties": {
				"fields": {
					"type": "array",
					"description": "The table's columns.",
					"items": {
						"type": "object",
						"properties": {
							"id": {"type": "string", "description": "Field name."},
							"type": {"type": "string", "description": "CKAN type: int, text, numeric, date or bool."}
						},
						"required": ["id", "type"]
					}
				},
				"records": {
					"type": "array",
					"description": "This page of matching rows.",
					"items": {
						"type": "object",
						"properties": {
							"id": {"type": "integer"},
							"name": {"type": "string"},
							"category": {"type": "string"},
							"price": {"type": "number"},
							"quantity": {"type": "integer"},
							"created": {"type": "string", "format": "date"},
							"in_stock": {"type": "boolean"}
						},
						"required": ["id", "name", "category", "price", "quantity", "created", "in_stock"]
					}
				},
				"total": {"type": "integer", "description": "Number of matching rows across all pages."},
				"limit": {"type": "integer"},
				"offset": {"type": "integer"},
				"sort": {"type": "string", "description": "The sort applied, if any."},
				"q": {"type": "string", "description": "The text searched for, if any."},
				"filters": {"type": "object", "description": "The filters applied, if any."}
			},
			"required": ["fields", "records", "total", "limit", "offset"]
		}`)),
		mcp.WithToolAnnotation(annotations(title, true, false, true)),
	)
}

func (st *state) handleDatastoreSearch(_ context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	a, err := parseArgs(req)
	if err != nil {
		return toolError("%v", err), nil
	}
	res, err := st.search(a)
	if err != nil {
		return toolError("%v", err), nil
	}
	return structuredResult(res)
}
