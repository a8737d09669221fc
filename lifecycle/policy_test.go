package lifecycle

import (
	"math"
	"testing"
	"time"
)

func TestDefaultPolicy(t *testing.T) {
	p := DefaultPolicy()
	want := Policy{
		Workers:        4,
		MaxRequests:    10000,
		MaxUptime:      24 * time.Hour,
		MaxMemoryBytes: 512 * 1024 * 1024,
		DrainTimeout:   5000 * time.Millisecond,
		Recovery: Recovery{
			MaxConsecutiveFailures: 10,
			BackoffInitial:         100 * time.Millisecond,
			BackoffMax:             60 * time.Second,
			BackoffMultiplier:      3,
			HealthyReset:           60 * time.Second,
		},
		Degrade:           Degrade{ConsecutiveFailures: 5, Window: 20, FailureRate: 0.5, PeerRate: 0.1},
		MaxHealthFailures: 3,
	}
	if p != want {
		t.Errorf("DefaultPolicy() = %+v, want %+v", p, want)
	}
}

func TestRequestThreshold(t *testing.T) {
	tests := []struct {
		name        string
		maxRequests int64
		workers     int
		ids         []int
		want        []int64
	}{
		{"defaults staggered", 10000, 4, []int{0, 1, 2, 3}, []int64{10000, 10250, 10500, 10750}},
		{"integer math truncates", 1000, 3, []int{0, 1, 2}, []int64{1000, 1033, 1066}},
		{"one worker", 10000, 1, []int{0}, []int64{10000}},
		{"never", 0, 4, []int{0, 1, 2, 3}, []int64{0, 0, 0, 0}},
		{"negative is never", -5, 4, []int{0, 3}, []int64{0, 0}},
		{"zero workers: no stagger, no panic", 10000, 0, []int{0, 2}, []int64{10000, 10000}},
		{"negative id: no stagger", 10000, 4, []int{-1}, []int64{10000}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := Policy{Workers: tt.workers, MaxRequests: tt.maxRequests}
			for i, id := range tt.ids {
				if got := p.RequestThreshold(id); got != tt.want[i] {
					t.Errorf("RequestThreshold(%d) = %d, want %d", id, got, tt.want[i])
				}
			}
		})
	}
}

// TestStaggeredRotation is the seed's "Staggered rotation" row: workers that
// serve at the same rate cross their thresholds at different renders, so
// they never all rotate at once.
func TestStaggeredRotation(t *testing.T) {
	for _, workers := range []int{2, 4, 8, 16} {
		p := DefaultPolicy()
		p.Workers = workers
		firstRotation := map[int64]int{} // served count -> worker that first rotates there
		for id := range workers {
			var at int64 = -1
			for served := int64(0); served <= 2*p.MaxRequests; served++ {
				if _, ok := p.ShouldRotate(id, served, 0, 0); ok {
					at = served
					break
				}
			}
			if at < 0 {
				t.Fatalf("workers=%d: worker %d never rotates", workers, id)
			}
			if other, dup := firstRotation[at]; dup {
				t.Errorf("workers=%d: workers %d and %d both rotate at %d renders", workers, other, id, at)
			}
			firstRotation[at] = id
			if at < p.MaxRequests || at >= p.MaxRequests+p.MaxRequests/10 {
				t.Errorf("workers=%d: worker %d rotates at %d, outside [max, max+10%%)", workers, id, at)
			}
		}
	}
}

func TestShouldRotate(t *testing.T) {
	def := DefaultPolicy()
	off := Policy{Workers: 4} // every limit disabled
	const mib = 1 << 20
	tests := []struct {
		name     string
		p        Policy
		id       int
		served   int64
		uptime   time.Duration
		mem      int64
		want     Reason
		wantBool bool
	}{
		{"fresh worker", def, 0, 0, 0, 0, ReasonNone, false},
		{"one render short", def, 0, 9999, time.Hour, 100 * mib, ReasonNone, false},
		{"max requests reached", def, 0, 10000, 0, 0, ReasonMaxRequests, true},
		{"staggered worker not yet", def, 3, 10749, 0, 0, ReasonNone, false},
		{"staggered worker reached", def, 3, 10750, 0, 0, ReasonMaxRequests, true},
		{"uptime one tick short", def, 0, 0, 24*time.Hour - 1, 0, ReasonNone, false},
		{"uptime reached", def, 0, 0, 24 * time.Hour, 0, ReasonMaxUptime, true},
		{"memory at limit keeps serving", def, 0, 0, 0, 512 * mib, ReasonNone, false},
		{"memory over limit", def, 0, 0, 0, 512*mib + 1, ReasonMaxMemory, true},
		{"requests before uptime", def, 0, 10000, 25 * time.Hour, 0, ReasonMaxRequests, true},
		{"requests before memory", def, 0, 10000, 0, 1 << 40, ReasonMaxRequests, true},
		{"uptime before memory", def, 0, 0, 25 * time.Hour, 1 << 40, ReasonMaxUptime, true},
		{"all disabled never rotates", off, 1, math.MaxInt64, 1 << 62, math.MaxInt64, ReasonNone, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, ok := tt.p.ShouldRotate(tt.id, tt.served, tt.uptime, tt.mem)
			if got != tt.want || ok != tt.wantBool {
				t.Errorf("ShouldRotate(%d, %d, %v, %d) = %q, %v; want %q, %v",
					tt.id, tt.served, tt.uptime, tt.mem, got, ok, tt.want, tt.wantBool)
			}
		})
	}
}

func TestUptimeLeft(t *testing.T) {
	tests := []struct {
		maxUptime, uptime, want time.Duration
		wantOK                  bool
	}{
		{24 * time.Hour, 0, 24 * time.Hour, true},
		{24 * time.Hour, 23 * time.Hour, time.Hour, true},
		{24 * time.Hour, 24 * time.Hour, 0, true},
		{24 * time.Hour, 30 * time.Hour, 0, true},
		{0, time.Hour, 0, false},
		{-time.Second, time.Hour, 0, false},
	}
	for _, tt := range tests {
		p := Policy{MaxUptime: tt.maxUptime}
		got, ok := p.UptimeLeft(tt.uptime)
		if got != tt.want || ok != tt.wantOK {
			t.Errorf("MaxUptime %v: UptimeLeft(%v) = %v, %v; want %v, %v", tt.maxUptime, tt.uptime, got, ok, tt.want, tt.wantOK)
		}
	}
}

func TestBackoffSchedule(t *testing.T) {
	ms := time.Millisecond
	tests := []struct {
		name string
		r    Recovery
		want []time.Duration // attempts 1, 2, 3, ...
	}{
		{"defaults", DefaultPolicy().Recovery, []time.Duration{
			0, 100 * ms, 300 * ms, 900 * ms, 2700 * ms, 8100 * ms, 24300 * ms, 60 * time.Second, 60 * time.Second, 60 * time.Second,
		}},
		{"50ms x2 up to 1s", Recovery{BackoffInitial: 50 * ms, BackoffMultiplier: 2, BackoffMax: time.Second}, []time.Duration{
			0, 50 * ms, 100 * ms, 200 * ms, 400 * ms, 800 * ms, 1000 * ms, 1000 * ms,
		}},
		{"multiplier 1 is constant", Recovery{BackoffInitial: 250 * ms, BackoffMultiplier: 1, BackoffMax: time.Minute}, []time.Duration{
			0, 250 * ms, 250 * ms, 250 * ms, 250 * ms,
		}},
		{"multiplier below 1 is treated as 1", Recovery{BackoffInitial: 250 * ms, BackoffMultiplier: 0.5, BackoffMax: time.Minute}, []time.Duration{
			0, 250 * ms, 250 * ms, 250 * ms,
		}},
		{"initial above max is capped", Recovery{BackoffInitial: 5 * time.Second, BackoffMultiplier: 3, BackoffMax: time.Second}, []time.Duration{
			0, time.Second, time.Second,
		}},
		{"no initial means no wait", Recovery{BackoffMultiplier: 3, BackoffMax: time.Minute}, []time.Duration{
			0, 0, 0,
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for i, want := range tt.want {
				attempt := i + 1
				if got := tt.r.Backoff(attempt); got != want {
					t.Errorf("Backoff(%d) = %v, want %v", attempt, got, want)
				}
			}
		})
	}
}

func TestBackoffNeverNegative(t *testing.T) {
	capped := DefaultPolicy().Recovery
	uncapped := capped
	uncapped.BackoffMax = 0
	nan := capped
	nan.BackoffMultiplier = math.NaN()
	tests := []struct {
		name    string
		r       Recovery
		attempt int
		want    time.Duration
	}{
		{"attempt 0", capped, 0, 0},
		{"negative attempt", capped, -3, 0},
		{"huge attempt capped", capped, 1000, 60 * time.Second},
		{"max int attempt capped", capped, math.MaxInt, 60 * time.Second},
		{"huge attempt uncapped saturates", uncapped, 1000, time.Duration(math.MaxInt64)},
		{"max int attempt uncapped saturates", uncapped, math.MaxInt, time.Duration(math.MaxInt64)},
		{"uncapped still grows", uncapped, 9, 100 * time.Millisecond * 2187},
		{"NaN multiplier is constant", nan, 5, 100 * time.Millisecond},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.r.Backoff(tt.attempt); got != tt.want {
				t.Errorf("Backoff(%d) = %v, want %v", tt.attempt, got, tt.want)
			}
		})
	}
	// The schedule must be non-decreasing and non-negative all the way up.
	for _, r := range []Recovery{capped, uncapped} {
		prev := time.Duration(0)
		for a := 1; a <= 200; a++ {
			d := r.Backoff(a)
			if d < prev {
				t.Fatalf("max %v: Backoff(%d) = %v < Backoff(%d) = %v", r.BackoffMax, a, d, a-1, prev)
			}
			prev = d
		}
	}
}

func TestGiveUp(t *testing.T) {
	tests := []struct {
		max, consecutive int
		want             bool
	}{
		{10, 0, false},
		{10, 9, false},
		{10, 10, true},
		{10, 11, true},
		{1, 1, true},
		{0, 1000, false}, // 0 = never give up
		{-1, 1000, false},
	}
	for _, tt := range tests {
		r := Recovery{MaxConsecutiveFailures: tt.max}
		if got := r.GiveUp(tt.consecutive); got != tt.want {
			t.Errorf("max %d: GiveUp(%d) = %v, want %v", tt.max, tt.consecutive, got, tt.want)
		}
	}
}

func TestReset(t *testing.T) {
	r := DefaultPolicy().Recovery
	tests := []struct {
		consecutive int
		healthy     time.Duration
		want        int
	}{
		{5, 0, 5},
		{5, 59 * time.Second, 5},
		{5, 60*time.Second - 1, 5},
		{5, 60 * time.Second, 0},
		{9, time.Hour, 0},
		{0, 0, 0},
	}
	for _, tt := range tests {
		if got := r.Reset(tt.consecutive, tt.healthy); got != tt.want {
			t.Errorf("Reset(%d, %v) = %d, want %d", tt.consecutive, tt.healthy, got, tt.want)
		}
	}
}

// TestRecoveryScenario walks the seed's "Crash backoff", "Backoff reset" and
// "Max failures gives up" rows together the way a pool applies them.
func TestRecoveryScenario(t *testing.T) {
	r := DefaultPolicy().Recovery
	failures := 0
	var waits []time.Duration
	fail := func(healthy time.Duration) bool {
		failures = r.Reset(failures, healthy) + 1
		if r.GiveUp(failures) {
			return true
		}
		waits = append(waits, r.Backoff(failures))
		return false
	}
	// Three quick boot failures back off 0, 100ms, 300ms.
	for range 3 {
		if fail(0) {
			t.Fatal("gave up after fewer than 10 failures")
		}
	}
	// Healthy for a minute: the next failure is attempt 1 again.
	if fail(time.Minute) {
		t.Fatal("gave up right after a healthy period")
	}
	want := []time.Duration{0, 100 * time.Millisecond, 300 * time.Millisecond, 0}
	for i := range want {
		if waits[i] != want[i] {
			t.Errorf("wait %d = %v, want %v (all %v)", i, waits[i], want[i], waits)
		}
	}
	// Nine more without a healthy period: the 10th consecutive gives up.
	gaveUp := 0
	for i := range 9 {
		if fail(time.Second) {
			gaveUp = i + 2 // failures counted since the reset
			break
		}
	}
	if gaveUp != 10 {
		t.Errorf("gave up at consecutive failure %d, want 10", gaveUp)
	}
}

func TestDegradeUnhealthy(t *testing.T) {
	d := DefaultDegrade()
	for _, c := range []struct {
		name                           string
		consec, fails, n, peerF, peerN int
		want                           bool
	}{
		{"5 in a row, peers fine", 5, 5, 5, 0, 60, true},
		{"4 in a row", 4, 4, 4, 0, 60, false},
		{"half of a full window", 1, 10, 20, 3, 60, true},
		{"half of a window not yet full", 1, 9, 18, 0, 60, false},
		{"peers fail as much: a shared cause", 20, 20, 20, 30, 60, false},
		{"peers at 10%", 5, 5, 5, 6, 60, false},
		{"no peer renders to compare with", 9, 9, 9, 0, 0, false},
	} {
		detail, ok := d.Unhealthy(c.consec, c.fails, c.n, c.peerF, c.peerN)
		if ok != c.want || ok && detail == "" {
			t.Errorf("%s: Unhealthy = %q, %v; want %v", c.name, detail, ok, c.want)
		}
	}
	if detail, _ := d.Unhealthy(7, 7, 7, 1, 50); detail != "7 failed renders in a row (peers 2% of 50)" {
		t.Errorf("detail %q", detail)
	}
	if _, ok := (Degrade{}).Unhealthy(50, 50, 50, 0, 50); ok {
		t.Error("a zero Degrade (off) degraded a worker")
	}
}
