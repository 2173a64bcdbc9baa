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
		maxWait time.Duration // toolRefresh.backoff (0 = 8 intervals)
		last    time.Duration
		err     error
		want    time.Duration
	}{
		{0, m, nil, m},
		{0, m, fail, 2 * m},
		{0, 2 * m, fail, 4 * m},
		{0, 4 * m, fail, 8 * m},
		{0, 8 * m, fail, 8 * m},
		{0, 8 * m, nil, m},
		{3 * m, 2 * m, fail, 3 * m},
		{3 * m, 3 * m, fail, 3 * m},
		{30 * time.Second, m, fail, m}, // never below the interval
	} {
		if got := nextRefreshWait(m, tc.maxWait, tc.last, tc.err); got != tc.want {
			t.Errorf("nextRefreshWait(1m, max %v, %v, %v) = %v, want %v", tc.maxWait, tc.last, tc.err, got, tc.want)
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
