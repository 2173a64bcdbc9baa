package tui

import "testing"

func TestRingKeepsTheNewest(t *testing.T) {
	r := newRing[int](3)
	for i := 1; i <= 5; i++ {
		r.Push(i)
	}
	if r.Len() != 3 || r.At(0) != 3 || r.At(2) != 5 || r.Dropped() != 2 {
		t.Fatalf("len %d, items %d..%d, dropped %d", r.Len(), r.At(0), r.At(r.Len()-1), r.Dropped())
	}
	*r.Ptr(1) = 40
	if r.At(1) != 40 {
		t.Fatal("Ptr does not address the item")
	}
	r2 := newRing[string](0)
	r2.Push("a")
	r2.Push("b")
	if r2.Len() != 1 || r2.At(0) != "b" {
		t.Fatalf("capacity 0 is treated as 1: %d %q", r2.Len(), r2.At(0))
	}
}
