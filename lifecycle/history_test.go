package lifecycle

import (
	"testing"
	"time"
)

// mark returns a Transition told apart by its InPrevious.
func mark(i int) Transition {
	return Transition{From: Active, To: Draining, Reason: ReasonManual, InPrevious: time.Duration(i)}
}

func marks(ts []Transition) []int {
	out := make([]int, len(ts))
	for i, t := range ts {
		out[i] = int(t.InPrevious)
	}
	return out
}

func equalInts(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func TestHistoryRing(t *testing.T) {
	seq := func(from, to int) []int {
		var s []int
		for i := from; i <= to; i++ {
			s = append(s, i)
		}
		return s
	}
	tests := []struct {
		name     string
		capacity int
		adds     int
		want     []int
	}{
		{"empty", 3, 0, nil},
		{"partial", 3, 2, []int{1, 2}},
		{"exactly full", 3, 3, []int{1, 2, 3}},
		{"wrapped once", 3, 4, []int{2, 3, 4}},
		{"wrapped to start", 3, 6, []int{4, 5, 6}},
		{"wrapped many times", 3, 10, []int{8, 9, 10}},
		{"capacity 1", 1, 5, []int{5}},
		{"zero capacity defaults to 32", 0, 40, seq(9, 40)},
		{"negative capacity defaults to 32", -1, 33, seq(2, 33)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := NewHistory(tt.capacity)
			for i := 1; i <= tt.adds; i++ {
				h.Add(mark(i))
			}
			got := marks(h.List())
			if !equalInts(got, tt.want) {
				t.Errorf("List() = %v, want %v", got, tt.want)
			}
			if h.Len() != len(tt.want) {
				t.Errorf("Len() = %d, want %d", h.Len(), len(tt.want))
			}
		})
	}
}

func TestHistoryZeroValue(t *testing.T) {
	var h History
	if h.List() != nil {
		t.Fatalf("zero History List() = %v, want nil", h.List())
	}
	for i := 1; i <= DefaultHistoryCapacity+5; i++ {
		h.Add(mark(i))
	}
	got := marks(h.List())
	if len(got) != DefaultHistoryCapacity || got[0] != 6 || got[len(got)-1] != DefaultHistoryCapacity+5 {
		t.Errorf("zero History after %d adds: len %d, first %d, last %d; want %d entries 6..%d",
			DefaultHistoryCapacity+5, len(got), got[0], got[len(got)-1], DefaultHistoryCapacity, DefaultHistoryCapacity+5)
	}
}

func TestHistoryListIsCopy(t *testing.T) {
	h := NewHistory(2)
	h.Add(mark(1))
	h.Add(mark(2))
	l := h.List()
	l[0].InPrevious = 99
	if got := marks(h.List()); !equalInts(got, []int{1, 2}) {
		t.Errorf("mutating List() result changed the history: %v", got)
	}
	h.Add(mark(3))
	if got := marks(l); !equalInts(got, []int{99, 2}) {
		t.Errorf("Add changed an earlier List() result: %v", got)
	}
}

func TestHistoryKeepsFields(t *testing.T) {
	at := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	want := Transition{From: Booting, To: Failed, Reason: ReasonBootFailure, At: at, InPrevious: 250 * time.Millisecond, Err: "SyntaxError: x"}
	h := NewHistory(4)
	h.Add(want)
	if got := h.List(); len(got) != 1 || got[0] != want {
		t.Errorf("List() = %+v, want [%+v]", got, want)
	}
}
