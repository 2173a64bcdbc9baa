package contract

import "testing"

func TestUIStatusSummary(t *testing.T) {
	for _, c := range []struct {
		u    UIStatus
		want string
	}{
		{UIStatus{}, "none"},
		{UIStatus{State: UIStateNone}, "none"},
		{UIStatus{State: UIStateGenerating, Generating: true}, "generating"},
		{UIStatus{State: UIStateCached, Kind: "offline-rich", Generator: "offline"}, "cached offline-rich · by offline"},
		{UIStatus{State: UIStateCached, Kind: "offline-rich", Generating: true}, "cached offline-rich · generating"},
		{UIStatus{State: UIStateFallback, Kind: "offline-minimal", FallbackReason: "budget spent"}, "fallback offline-minimal · budget spent"},
		{UIStatus{State: UIStateOwn}, "own UI"},
		{UIStatus{State: UIStateDisabled}, "disabled"},
	} {
		if got := c.u.Summary(); got != c.want {
			t.Errorf("%+v: %q, want %q", c.u, got, c.want)
		}
	}
}
