package engine

import (
	"errors"
	"testing"
	"time"
)

func TestNextRefreshWait(t *testing.T) {
	fail := errors.New("down")
	m := time.Minute
	for _, tc := range []struct {
		last time.Duration
		err  error
		want time.Duration
	}{
		{m, nil, m},
		{m, fail, 2 * m},
		{2 * m, fail, 4 * m},
		{4 * m, fail, 8 * m},
		{8 * m, fail, 8 * m},
		{8 * m, nil, m},
	} {
		if got := nextRefreshWait(m, tc.last, tc.err); got != tc.want {
			t.Errorf("nextRefreshWait(1m, %v, %v) = %v, want %v", tc.last, tc.err, got, tc.want)
		}
	}
}

func TestCloseMatches(t *testing.T) {
	names := []string{"get_forecast", "get_current_weather", "datastore_search", "set_units"}
	for _, tc := range []struct {
		in   string
		want string
	}{
		{"get_forcast", "get_forecast"},
		{"forecast", "get_forecast"},
		{"DATASTORE_SEARCH", "datastore_search"},
	} {
		got := closeMatches(tc.in, names)
		if len(got) == 0 || got[0] != tc.want {
			t.Errorf("closeMatches(%q) = %v, want %s first", tc.in, got, tc.want)
		}
	}
	if got := closeMatches("zzzzzzzzzz", names); len(got) != 0 {
		t.Errorf("closeMatches of nonsense = %v, want none", got)
	}
}

func TestUIURIRoundTrip(t *testing.T) {
	for _, name := range []string{"get_forecast", "a b", "x/y", "ünï"} {
		got, ok := ToolFromURI(UIURI(name))
		if !ok || got != name {
			t.Errorf("ToolFromURI(UIURI(%q)) = %q, %v", name, got, ok)
		}
	}
	if _, ok := ToolFromURI("file:///x"); ok {
		t.Error("non-ui URI accepted")
	}
}
