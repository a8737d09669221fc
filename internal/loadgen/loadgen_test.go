package loadgen

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"
	"time"
)

func TestPercentile(t *testing.T) {
	ms := func(v ...int) []time.Duration {
		out := make([]time.Duration, len(v))
		for i, x := range v {
			out[i] = time.Duration(x) * time.Millisecond
		}
		return out
	}
	hundred := make([]int, 100)
	for i := range hundred {
		hundred[i] = i + 1
	}
	for _, tc := range []struct {
		in   []time.Duration
		p    int
		want time.Duration
	}{
		{nil, 50, 0},
		{ms(7), 50, 7 * time.Millisecond},
		{ms(7), 99, 7 * time.Millisecond},
		{ms(1, 2, 3, 4), 50, 2 * time.Millisecond},
		{ms(hundred...), 50, 50 * time.Millisecond},
		{ms(hundred...), 99, 99 * time.Millisecond},
		{ms(1, 2, 3, 4, 1000), 99, 1000 * time.Millisecond},
	} {
		if got := Percentile(tc.in, tc.p); got != tc.want {
			t.Errorf("Percentile(%v, %d) = %v, want %v", tc.in, tc.p, got, tc.want)
		}
	}
}

func TestLoadAgainstHTTPServer(t *testing.T) {
	var hits atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if hits.Add(1)%10 == 0 {
			http.Error(w, "every tenth fails", http.StatusInternalServerError)
			return
		}
		_, _ = w.Write([]byte("hello"))
	}))
	defer srv.Close()
	do, err := HTTPGet(srv.URL+"/x", 2)
	if err != nil {
		t.Fatal(err)
	}
	dur := 150 * time.Millisecond
	st := Load(context.Background(), Same(do), 2, dur)
	if st.Requests == 0 || st.Errors == 0 {
		t.Fatalf("requests %d, errors %d; want both > 0", st.Requests, st.Errors)
	}
	if got := int64(st.Requests + st.Errors); got != hits.Load() {
		t.Errorf("counted %d requests, server saw %d", got, hits.Load())
	}
	if st.Bytes != int64(5*st.Requests) {
		t.Errorf("bytes %d, want %d", st.Bytes, 5*st.Requests)
	}
	if st.Elapsed < dur || st.Elapsed > dur+2*time.Second {
		t.Errorf("run took %v, want about %v", st.Elapsed, dur)
	}
	if st.P50 <= 0 || st.P50 > st.P99 || st.P99 > st.Max {
		t.Errorf("p50 %v, p99 %v, max %v are not ordered", st.P50, st.P99, st.Max)
	}
}

func TestHTTPGetRefusesRemoteTargets(t *testing.T) {
	for _, u := range []string{"http://example.com/", "http://10.0.0.1:3000/", "http://[2001:db8::1]/"} {
		if _, err := HTTPGet(u, 1); !errors.Is(err, ErrNotLoopback) {
			t.Errorf("HTTPGet(%q) error = %v, want ErrNotLoopback", u, err)
		}
	}
	for _, u := range []string{"http://127.0.0.1:3000/", "http://localhost:1/", "http://[::1]:8080/x"} {
		if _, err := HTTPGet(u, 1); err != nil {
			t.Errorf("HTTPGet(%q): %v", u, err)
		}
	}
	if _, err := HTTPGet("ftp://127.0.0.1/", 1); err == nil {
		t.Error("HTTPGet accepted an ftp URL")
	}
}

func TestStatsAdd(t *testing.T) {
	ms := time.Millisecond
	a := Stats{Requests: 2, Bytes: 20, Elapsed: time.Second, lat: []time.Duration{3 * ms, 1 * ms}}
	a.summarise()
	b := Stats{Requests: 1, Errors: 1, FirstErr: errors.New("boom"), Bytes: 10, Elapsed: time.Second, lat: []time.Duration{2 * ms}}
	b.summarise()
	got := a.Add(b)
	if got.Requests != 3 || got.Errors != 1 || got.Bytes != 30 || got.Elapsed != 2*time.Second || got.FirstErr == nil {
		t.Errorf("Add = %+v", got)
	}
	if got.PerSecond() != 1.5 || got.P50 != 2*ms || got.P99 != 3*ms || got.Max != 3*ms {
		t.Errorf("rate %v, p50 %v, p99 %v, max %v; want 1.5/s, 2ms, 3ms, 3ms", got.PerSecond(), got.P50, got.P99, got.Max)
	}
	if a.Requests != 2 || len(a.lat) != 2 {
		t.Error("Add changed its receiver")
	}
}
