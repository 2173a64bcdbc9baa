package contract

import "context"

// TrafficQuery asks RecentTraffic for the frames after traffic number
// After (0: all it holds), at most Limit of them, the newest (0 or more
// than MaxRecentTraffic: MaxRecentTraffic).
type TrafficQuery struct {
	After int64 `json:"after,omitempty"`
	Limit int   `json:"limit,omitempty"`
}

// TrafficPage is RecentTraffic's answer.
type TrafficPage struct {
	// Events are EventTraffic events (Detail *Traffic), oldest first;
	// their Seq is 0 (Traffic.Seq numbers them).
	Events []Event `json:"events"`
	// Skipped is how many frames after the query's After are not in
	// Events: pushed out of genui's bounded record, or beyond Limit. They
	// come just before the first event.
	Skipped int64 `json:"skipped"`
	// Last is the newest traffic number genui gave out.
	Last int64 `json:"last"`
}

// MaxRecentTraffic bounds one RecentTraffic answer (genui holds about
// this many frames, and at most 8 MB of them).
const MaxRecentTraffic = 2000

// RecentTraffic answers with CodeUnavailable.
func (UnimplementedHost) RecentTraffic(context.Context, TrafficQuery) (TrafficPage, error) {
	return TrafficPage{}, unimplemented("RecentTraffic")
}
