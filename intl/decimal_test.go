package intl

import (
	"math/rand"
	"testing"
)

// TestRoundAtMatchesIncrement checks the fast rounding against the
// big-integer one for random values, positions and modes.
func TestRoundAtMatchesIncrement(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	for i := 0; i < 20000; i++ {
		f := (rng.Float64() - 0.5) * float64(int64(1)<<uint(rng.Intn(40)))
		if rng.Intn(4) == 0 {
			f = float64(rng.Intn(2000)-1000) / 8
		}
		x := decFromFloat(f)
		pos := rng.Intn(12) - 8
		mode := roundingModes[rng.Intn(len(roundingModes))]
		a, b := x.roundAt(pos, mode), x.roundIncrement(pos, 1, mode)
		if a.String() != b.String() || a.neg != b.neg {
			t.Fatalf("%v at %d %s: fast %s, big %s", f, pos, mode, a, b)
		}
	}
}
