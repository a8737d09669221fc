package render

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"bext/pool"
)

const (
	loopback = "127.0.0.1:50000"
	remote   = "203.0.113.7:41000"
)

// The admin listener trusts local clients (loopback peer, no forwarding
// header of any kind, even empty) and the token; the public listener trusts
// only the token, and public_read for reads: a same-host relay that adds no
// header cannot make remote clients admins there.
func TestAdminAccess(t *testing.T) {
	e := newEnv(t, 2, func(o *Options, _ *pool.Options) { o.AdminToken = "s3cret" })
	tok := map[string]string{"Authorization": "Bearer s3cret"}
	cases := []struct {
		name          string
		method        string
		peer          string
		hdr           map[string]string
		admin, public int // status on the admin listener, on the public one
	}{
		{"loopback read", "GET", loopback, nil, 200, 403},
		{"loopback ipv6 read", "GET", "[::1]:5000", nil, 200, 403},
		{"loopback restart", "POST", loopback, nil, 202, 403},
		{"remote read", "GET", remote, nil, 403, 403},
		{"remote restart", "POST", remote, nil, 403, 403},
		{"same-host proxy X-Forwarded-For", "GET", loopback, map[string]string{"X-Forwarded-For": "198.51.100.1"}, 403, 403},
		{"same-host proxy Forwarded", "POST", loopback, map[string]string{"Forwarded": "for=198.51.100.1"}, 403, 403},
		{"same-host proxy X-Real-IP", "GET", loopback, map[string]string{"X-Real-IP": "198.51.100.1"}, 403, 403},
		{"empty X-Forwarded-For", "POST", loopback, map[string]string{"X-Forwarded-For": ""}, 403, 403},
		{"blank Forwarded", "GET", loopback, map[string]string{"Forwarded": "  "}, 403, 403},
		{"True-Client-IP", "POST", loopback, map[string]string{"True-Client-IP": "198.51.100.1"}, 403, 403},
		{"X-Client-IP", "GET", loopback, map[string]string{"X-Client-IP": "198.51.100.1"}, 403, 403},
		{"remote right token", "GET", remote, tok, 200, 200},
		{"remote right token restart", "POST", remote, tok, 202, 202},
		{"proxied right token", "POST", loopback, map[string]string{"Authorization": "Bearer s3cret", "X-Forwarded-For": "1.2.3.4"}, 202, 202},
		{"remote wrong token", "GET", remote, map[string]string{"Authorization": "Bearer s3cre"}, 403, 403},
		{"remote token without Bearer", "GET", remote, map[string]string{"Authorization": "s3cret"}, 403, 403},
	}
	for _, c := range cases {
		for _, path := range map[string][]string{"GET": {"/__bext/workers", "/__bext/workers/0", "/metrics"}, "POST": {"/__bext/workers/restart"}}[c.method] {
			if rec := e.do(c.method, path, c.peer, c.hdr); rec.Code != c.admin {
				t.Errorf("admin listener, %s: %s %s = %d, want %d (%s)", c.name, c.method, path, rec.Code, c.admin, rec.Body)
			}
			if rec := e.public(c.method, path, c.peer, c.hdr); rec.Code != c.public {
				t.Errorf("public listener, %s: %s %s = %d, want %d (%s)", c.name, c.method, path, rec.Code, c.public, rec.Body)
			}
		}
	}
}

// The 403 says how to get in, and offers the token only when one is set.
func TestForbiddenOffersTheTokenOnlyWhenConfigured(t *testing.T) {
	without := newEnv(t, 1, nil)
	if rec := without.do("POST", "/__bext/workers/restart", remote, nil); rec.Code != 403 || strings.Contains(rec.Body.String(), "Bearer") {
		t.Errorf("no token configured: %d %s", rec.Code, rec.Body)
	}
	with := newEnv(t, 1, func(o *Options, _ *pool.Options) { o.AdminToken = "x" })
	if rec := with.do("POST", "/__bext/workers/restart", remote, nil); rec.Code != 403 || !strings.Contains(rec.Body.String(), "Bearer") {
		t.Errorf("token configured: %d %s", rec.Code, rec.Body)
	}
}

// With the admin routes on a listener of their own and neither a token nor
// public_read, the public listener does not serve them at all: the paths
// are the app's.
func TestSeparateAdminLeavesThePathsToTheApp(t *testing.T) {
	e := newEnv(t, 1, func(o *Options, _ *pool.Options) { o.AdminSeparate = true })
	if rec := e.public("GET", "/__bext/workers", loopback, nil); rec.Code != 404 || strings.HasPrefix(rec.Body.String(), "[") {
		t.Fatalf("public /__bext/workers = %d %.60s, want the app's 404 page", rec.Code, rec.Body)
	}
	if rec := e.do("GET", "/__bext/workers", loopback, nil); rec.Code != 200 {
		t.Fatalf("admin listener = %d", rec.Code)
	}
}

func TestWorkersJSON(t *testing.T) {
	e := newEnv(t, 3, nil)
	for range 5 {
		e.get(t, "/")
	}
	rec := e.do("GET", "/__bext/workers", loopback, nil)
	if rec.Code != 200 || !strings.HasPrefix(rec.Header().Get("Content-Type"), "application/json") {
		t.Fatalf("GET /__bext/workers: %d %s", rec.Code, rec.Header())
	}
	var raw []map[string]any
	if err := json.Unmarshal(rec.Body.Bytes(), &raw); err != nil {
		t.Fatal(err)
	}
	if len(raw) != 3 {
		t.Fatalf("%d workers, want 3", len(raw))
	}
	keys := []string{"id", "state", "requests_served", "requests_failed", "total_render_time_ms", "avg_render_time_ms",
		"peak_memory_bytes", "current_memory_bytes", "started_at", "last_request_at", "restarts", "consecutive_failures",
		"in_flight", "generation", "last_rotation_reason", "last_error"}
	var served float64
	for i, w := range raw {
		for _, k := range keys {
			if _, ok := w[k]; !ok {
				t.Errorf("worker %d lacks %q", i, k)
			}
		}
		if w["id"].(float64) != float64(i) || w["state"] != "ACTIVE" {
			t.Errorf("worker %d: id %v state %v, want id order and ACTIVE", i, w["id"], w["state"])
		}
		served += w["requests_served"].(float64)
		if _, err := timeParse(w["started_at"].(string)); err != nil {
			t.Errorf("started_at not RFC 3339: %v", err)
		}
	}
	if served != 5 {
		t.Fatalf("requests_served sums to %v, want 5", served)
	}
}

func TestWorkerDetail(t *testing.T) {
	e := newEnv(t, 1, nil)
	e.get(t, "/log")
	rec := e.do("GET", "/__bext/workers/0", loopback, nil)
	var d struct {
		ID      int `json:"id"`
		History []struct{ From, To, Reason string }
		Console []struct{ Level, Text string }
	}
	if err := json.Unmarshal(rec.Body.Bytes(), &d); err != nil || rec.Code != 200 {
		t.Fatalf("%d %s %v", rec.Code, rec.Body, err)
	}
	if len(d.History) < 2 || d.History[len(d.History)-1].To != "ACTIVE" {
		t.Fatalf("history %+v, want BOOTING then ACTIVE", d.History)
	}
	if len(d.Console) == 0 || !strings.Contains(d.Console[len(d.Console)-1].Text, "hello from /log") {
		t.Fatalf("console tail %+v lacks the app's log line", d.Console)
	}
	for _, path := range []string{"/__bext/workers/7", "/__bext/workers/abc"} {
		rec := e.do("GET", path, loopback, nil)
		var body map[string]string
		json.Unmarshal(rec.Body.Bytes(), &body)
		if rec.Code != 404 || body["error"] == "" {
			t.Errorf("GET %s = %d %s, want a 404 JSON error", path, rec.Code, rec.Body)
		}
	}
}

func TestRestartRoute(t *testing.T) {
	e := newEnv(t, 2, nil)
	cases := []struct {
		method, target string
		want           int
		scheduled      string
	}{
		{"POST", "/__bext/workers/restart", 202, "[0,1]"},
		{"POST", "/__bext/workers/restart?worker=1", 202, "[1]"},
		{"POST", "/__bext/workers/restart?worker=9", 404, ""},
		{"POST", "/__bext/workers/restart?worker=x", 400, ""},
		{"GET", "/__bext/workers/restart", 405, ""},
		{"PUT", "/__bext/workers/restart", 405, ""},
		{"DELETE", "/__bext/workers", 405, ""},
	}
	for _, c := range cases {
		rec := e.do(c.method, c.target, loopback, nil)
		if rec.Code != c.want {
			t.Errorf("%s %s = %d, want %d (%s)", c.method, c.target, rec.Code, c.want, rec.Body)
			continue
		}
		if c.scheduled != "" {
			var body struct{ Scheduled []int }
			json.Unmarshal(rec.Body.Bytes(), &body)
			got, _ := json.Marshal(body.Scheduled)
			if string(got) != c.scheduled {
				t.Errorf("%s scheduled %s, want %s", c.target, got, c.scheduled)
			}
		}
	}
	_ = http.MethodGet
}
