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

func TestAdminAccess(t *testing.T) {
	e := newEnv(t, 2, func(o *Options, _ *pool.Options) { o.AdminToken = "s3cret" })
	cases := []struct {
		name   string
		method string
		peer   string
		hdr    map[string]string
		want   int
	}{
		{"loopback read", "GET", loopback, nil, 200},
		{"loopback ipv6 read", "GET", "[::1]:5000", nil, 200},
		{"loopback restart", "POST", loopback, nil, 202},
		{"remote read", "GET", remote, nil, 403},
		{"remote restart", "POST", remote, nil, 403},
		{"same-host proxy X-Forwarded-For", "GET", loopback, map[string]string{"X-Forwarded-For": "198.51.100.1"}, 403},
		{"same-host proxy Forwarded", "POST", loopback, map[string]string{"Forwarded": "for=198.51.100.1"}, 403},
		{"same-host proxy X-Real-IP", "GET", loopback, map[string]string{"X-Real-IP": "198.51.100.1"}, 403},
		{"remote right token", "GET", remote, map[string]string{"Authorization": "Bearer s3cret"}, 200},
		{"remote right token restart", "POST", remote, map[string]string{"Authorization": "Bearer s3cret"}, 202},
		{"proxied right token", "POST", loopback, map[string]string{"Authorization": "Bearer s3cret", "X-Forwarded-For": "1.2.3.4"}, 202},
		{"remote wrong token", "GET", remote, map[string]string{"Authorization": "Bearer s3cre"}, 403},
		{"remote token without Bearer", "GET", remote, map[string]string{"Authorization": "s3cret"}, 403},
	}
	for _, c := range cases {
		for _, path := range map[string][]string{"GET": {"/__bext/workers", "/__bext/workers/0", "/metrics"}, "POST": {"/__bext/workers/restart"}}[c.method] {
			rec := e.do(c.method, path, c.peer, c.hdr)
			if rec.Code != c.want {
				t.Errorf("%s: %s %s = %d, want %d (%s)", c.name, c.method, path, rec.Code, c.want, rec.Body)
			}
		}
	}
}

func TestAdminPublicRead(t *testing.T) {
	e := newEnv(t, 1, func(o *Options, _ *pool.Options) { o.AdminPublicRead = true })
	if rec := e.do("GET", "/__bext/workers", remote, nil); rec.Code != 200 {
		t.Fatalf("public_read GET from remote = %d", rec.Code)
	}
	if rec := e.do("POST", "/__bext/workers/restart", remote, nil); rec.Code != 403 {
		t.Fatalf("public_read must not allow restart from remote: %d", rec.Code)
	}
	if rec := e.do("GET", "/metrics", remote, map[string]string{"X-Forwarded-For": "1.1.1.1"}); rec.Code != 200 {
		t.Fatalf("public_read metrics = %d", rec.Code)
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
