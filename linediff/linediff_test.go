package linediff

import (
	"reflect"
	"testing"
)

func TestUnified(t *testing.T) {
	cases := []struct {
		name    string
		a, b    string
		context int
		want    []Line
	}{
		{"equal texts have no lines", "a\nb\n", "a\nb\n", 3, nil},
		{"one line changed, context around it", "a\nb\nc\n", "a\nB\nc\n", 1, []Line{
			{Hunk, "@@ -1,3 +1,3 @@"}, {Kept, "a"}, {Delete, "b"}, {Insert, "B"}, {Kept, "c"}}},
		{"context is bounded", "1\n2\n3\n4\n5\n", "1\n2\n3\n4\nfive\n", 1, []Line{
			{Hunk, "@@ -4,2 +4,2 @@"}, {Kept, "4"}, {Delete, "5"}, {Insert, "five"}}},
		{"a line added at the end", "a\n", "a\nb\n", 0, []Line{
			{Hunk, "@@ -2,0 +2,1 @@"}, {Insert, "b"}}},
		{"CRLF endings are cut", "x\r\n", "y\r\n", 0, []Line{
			{Hunk, "@@ -1,1 +1,1 @@"}, {Delete, "x"}, {Insert, "y"}}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, err := Unified(c.a, c.b, c.context)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, c.want) {
				t.Errorf("Unified(%q, %q, %d) =\n%q\nwant\n%q", c.a, c.b, c.context, got, c.want)
			}
		})
	}
}
