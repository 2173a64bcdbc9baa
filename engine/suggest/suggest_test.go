package suggest

import "testing"

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
		got := CloseMatches(tc.in, names)
		if len(got) == 0 || got[0] != tc.want {
			t.Errorf("CloseMatches(%q) = %v, want %s first", tc.in, got, tc.want)
		}
	}
	if got := CloseMatches("zzzzzzzzzz", names); len(got) != 0 {
		t.Errorf("CloseMatches of nonsense = %v, want none", got)
	}
}
