package lifecycle

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"
)

func TestStateString(t *testing.T) {
	tests := []struct {
		s    State
		want string
	}{
		{Booting, "BOOTING"},
		{Active, "ACTIVE"},
		{Draining, "DRAINING"},
		{Stopped, "STOPPED"},
		{Failed, "FAILED"},
		{Degraded, "DEGRADED"},
		{State(-1), "State(-1)"},
		{State(99), "State(99)"},
	}
	for _, tt := range tests {
		if got := tt.s.String(); got != tt.want {
			t.Errorf("State(%d).String() = %q, want %q", int(tt.s), got, tt.want)
		}
	}
}

func TestAllStatesCoversEnum(t *testing.T) {
	want := []State{Booting, Active, Draining, Stopped, Failed, Degraded}
	if len(AllStates) != len(want) {
		t.Fatalf("AllStates has %d states, want %d", len(AllStates), len(want))
	}
	for i, s := range want {
		if AllStates[i] != s {
			t.Errorf("AllStates[%d] = %v, want %v", i, AllStates[i], s)
		}
	}
}

func TestStateJSONRoundTrip(t *testing.T) {
	for _, s := range AllStates {
		b, err := json.Marshal(s)
		if err != nil {
			t.Fatalf("Marshal(%v): %v", s, err)
		}
		if want := `"` + s.String() + `"`; string(b) != want {
			t.Errorf("Marshal(%v) = %s, want %s", s, b, want)
		}
		var got State
		if err := json.Unmarshal(b, &got); err != nil {
			t.Fatalf("Unmarshal(%s): %v", b, err)
		}
		if got != s {
			t.Errorf("Unmarshal(%s) = %v, want %v", b, got, s)
		}
	}
}

func TestStateTextErrors(t *testing.T) {
	if _, err := State(7).MarshalText(); err == nil {
		t.Error("MarshalText of State(7) succeeded, want error")
	}
	for _, in := range []string{"", "active", "RUNNING", "State(1)"} {
		var s State
		if err := s.UnmarshalText([]byte(in)); err == nil {
			t.Errorf("UnmarshalText(%q) = %v, want error", in, s)
		}
	}
}

func TestServing(t *testing.T) {
	for _, s := range AllStates {
		if got, want := s.Serving(), s == Active; got != want {
			t.Errorf("%v.Serving() = %v, want %v", s, got, want)
		}
	}
}

// TestCheckEveryPair checks all 36 pairs against the table written out from
// DESIGN.md independently of the implementation's table.
func TestCheckEveryPair(t *testing.T) {
	type pair struct{ from, to State }
	allowed := map[pair]bool{
		{Booting, Active}:    true,
		{Booting, Failed}:    true,
		{Booting, Stopped}:   true,
		{Active, Draining}:   true,
		{Active, Stopped}:    true,
		{Draining, Stopped}:  true,
		{Failed, Booting}:    true,
		{Failed, Stopped}:    true,
		{Stopped, Booting}:   true,
		{Active, Degraded}:   true,
		{Degraded, Draining}: true,
		{Degraded, Stopped}:  true,
	}
	nLegal := 0
	for _, from := range AllStates {
		for _, to := range AllStates {
			err := Check(from, to)
			if allowed[pair{from, to}] {
				nLegal++
				if err != nil {
					t.Errorf("Check(%v, %v) = %v, want nil", from, to, err)
				}
				continue
			}
			if err == nil {
				t.Errorf("Check(%v, %v) = nil, want illegal", from, to)
				continue
			}
			if !errors.Is(err, ErrIllegalTransition) {
				t.Errorf("Check(%v, %v) = %v, does not wrap ErrIllegalTransition", from, to, err)
			}
			if msg := err.Error(); !strings.Contains(msg, from.String()) || !strings.Contains(msg, to.String()) {
				t.Errorf("Check(%v, %v) error %q does not name both states", from, to, msg)
			}
		}
	}
	if nLegal != len(allowed) {
		t.Errorf("visited %d legal pairs, want %d", nLegal, len(allowed))
	}
}

func TestCheckOutOfRange(t *testing.T) {
	for _, p := range [][2]State{{State(-1), Active}, {Active, State(6)}, {State(6), State(6)}} {
		if err := Check(p[0], p[1]); !errors.Is(err, ErrIllegalTransition) {
			t.Errorf("Check(%v, %v) = %v, want ErrIllegalTransition", p[0], p[1], err)
		}
	}
}

func TestRotationReasons(t *testing.T) {
	want := []Reason{"max_requests", "max_memory", "max_uptime", "crash", "file_change", "manual", "unhealthy"}
	if len(RotationReasons) != len(want) {
		t.Fatalf("RotationReasons = %v, want %v", RotationReasons, want)
	}
	for i := range want {
		if RotationReasons[i] != want[i] {
			t.Errorf("RotationReasons[%d] = %q, want %q", i, RotationReasons[i], want[i])
		}
	}
}
