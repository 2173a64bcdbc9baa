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
