package gen

import (
	"encoding/json"
	"testing"
)

// searchSchema declares one array of records, results; what else a result
// holds (related searches, larger) is not declared as records.
const searchSchema = `{"type":"object","properties":{
	"query":{"type":"string"},
	"total":{"type":"integer"},
	"results":{"type":"array","items":{"type":"object","properties":{"title":{"type":"string"},"url":{"type":"string"},"score":{"type":"number"}}}},
	"related":{"type":"array"}}}`

// searchResult holds the schema's 2 results beside 9 related searches.
const searchResult = `{"content":[{"type":"text","text":"2 results"}],"structuredContent":{"query":"csv export","total":2,
	"results":[{"title":"Exporting orders as CSV","url":"https://example.com/docs/export","score":0.93},{"title":"Paging the export","url":"https://example.com/docs/paging","score":0.71}],
	"related":[{"term":"csv","count":120},{"term":"export","count":98},{"term":"orders","count":77},{"term":"paging","count":40},{"term":"tax","count":31},
	{"term":"finance","count":22},{"term":"spreadsheet","count":19},{"term":"units","count":8},{"term":"header","count":5}]}}`

// TestPrincipalAsTheOutputSchemaNames: the proposal takes as principal data
// the array of records the tool's outputSchema declares as its own, not the
// result's largest array; through oneOf branches (a success shape beside an
// error one) too. A schema that declares several arrays, or one the result
// does not hold, names none: the result's own shape decides, as before.
// (No recorded tuned result has a schema whose array is not the largest; the
// shapes are written here.)
func TestPrincipalAsTheOutputSchemaNames(t *testing.T) {
	matches := `{"type":"object","oneOf":[
		{"type":"object","properties":{"ok":{"const":true},"data":{"type":"object","properties":{"matches":{"type":"array","items":{"type":"object","properties":{"path":{"type":"string"}}}},"count":{"type":"integer"}}}}},
		{"type":"object","properties":{"ok":{"const":false},"error":{"type":"object","properties":{"message":{"type":"string"}}}}}]}`
	two := `{"type":"object","properties":{
		"commits":{"type":"array","items":{"type":"object","properties":{"hash":{"type":"string"}}}},
		"tags":{"type":"array","items":{"type":"object","properties":{"name":{"type":"string"}}}}}}`
	for _, c := range []struct {
		name, schema, example, want string
	}{
		{"the schema's array, smaller than another", searchSchema, searchResult, "/results"},
		{"the schema's array in a oneOf branch, no result seen", matches, "", "/data/matches"},
		{"the schema's array in a oneOf branch, a result seen", matches, `{"content":[],"structuredContent":{"ok":true,"data":{"count":2,"matches":[{"path":"a.md"},{"path":"b.md"}],"links":[{"to":"x"},{"to":"y"},{"to":"z"}]}}}`, "/data/matches"},
		{"two arrays declared: none named", two, `{"content":[],"structuredContent":{"commits":[{"hash":"a"},{"hash":"b"}],"tags":[{"name":"v1"}]}}`, ""},
		{"the schema's array not in the result", searchSchema, `{"content":[],"structuredContent":{"query":"x","hits":[{"title":"a"},{"title":"b"}]}}`, "/hits"},
		{"an error result: the schema decides", searchSchema, `{"isError":true,"content":[{"type":"text","text":"bad query"}]}`, "/results"},
	} {
		got := proposeFrom(newShape(json.RawMessage(c.schema), json.RawMessage(c.example))).Principal
		if got != c.want {
			t.Errorf("%s: principal %q, want %q", c.name, got, c.want)
		}
	}
}
