package engine

import (
	"bytes"
	"context"
	"encoding/json"
	"log/slog"
	"strings"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"
)

func TestConsoleCaptureAndLog(t *testing.T) {
	var logs bytes.Buffer
	log := slog.New(slog.NewJSONHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
	iso := newTestIsolate(t, "console", "server.js", Options{WorkerID: 7, Log: log})
	mustRender(t, iso, get("/"))
	got := iso.Console()
	want := []struct{ level, text string }{
		{"log", `log line {"a":1}`},
		{"info", "info line"},
		{"warn", "warn line"},
		{"error", "error line x=42"},
		{"debug", "debug line"},
	}
	if len(got) != len(want) {
		t.Fatalf("console lines: %+v", got)
	}
	for k, w := range want {
		if got[k].Level != w.level || got[k].Text != w.text || got[k].At.IsZero() {
			t.Errorf("line %d = %+v, want %s %q", k, got[k], w.level, w.text)
		}
	}
	levels := map[string]string{}
	for _, line := range strings.Split(strings.TrimSpace(logs.String()), "\n") {
		var rec map[string]any
		if err := json.Unmarshal([]byte(line), &rec); err != nil {
			t.Fatal(err)
		}
		if rec["worker"] != float64(7) {
			t.Errorf("log line without worker=7: %s", line)
		}
		levels[rec["msg"].(string)] = rec["level"].(string)
	}
	if levels["warn line"] != "WARN" || levels["error line x=42"] != "ERROR" || levels["debug line"] != "DEBUG" || levels["info line"] != "INFO" {
		t.Errorf("slog levels: %v", levels)
	}
}

func TestConsoleRingIsBounded(t *testing.T) {
	iso := newTestIsolate(t, "console", "server.js", Options{ConsoleLines: 10, Log: slog.New(slog.DiscardHandler)})
	req := get("/")
	req.Query["n"] = "100"
	mustRender(t, iso, req)
	got := iso.Console()
	if len(got) != 10 {
		t.Fatalf("kept %d lines, want 10", len(got))
	}
	// newest 10 of 105: noise 95..99 then the five level lines, oldest first
	if got[0].Text != "noise 95" || got[9].Text != "debug line" {
		t.Fatalf("ring order: first %q last %q", got[0].Text, got[9].Text)
	}
}

func TestConsoleFormatting(t *testing.T) {
	iso := kitchen(t, Options{Log: slog.New(slog.DiscardHandler)})
	cases := map[string]string{
		`console.log("a", 1, true, null, undefined)`:           "a 1 true null undefined",
		`console.log("%s is %d%% done", "job", 42.7)`:          "job is 42.7% done",
		`console.log("%i|%o|%c.", 3.9, {k: "v"}, "color:red")`: `3|{"k":"v"}|.`,
		`console.log([1, "x"], function named() {})`:           `[1,"x"] [Function: named]`,
		`const o = {}; o.self = o; console.log(o)`:             "[object Object]",
		`console.log(new Error("bad"))`:                        "Error: bad",
	}
	for src, want := range cases {
		if _, err := iso.rt.RunString(src); err != nil {
			t.Fatalf("%s: %v", src, err)
		}
		lines := iso.Console()
		if got := lines[len(lines)-1].Text; !strings.HasPrefix(got, want) {
			t.Errorf("%s\n got %q\nwant %q", src, got, want)
		}
	}
}

// A render that logs in a loop reaches the log at a bounded rate: a burst,
// then consoleRate lines a second, with one line saying how many were left
// out; the worker's console tail still has the newest lines. Fake time.
func TestConsoleFloodIsRateLimitedInTheLog(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var logged atomic.Int64
		var leftOut atomic.Int64
		h := countHandler{fn: func(r slog.Record) {
			r.Attrs(func(a slog.Attr) bool {
				if a.Key == "lines_left_out" {
					leftOut.Add(a.Value.Int64())
				}
				return true
			})
			if r.Message != "" && !strings.HasPrefix(r.Message, "console output of a worker") {
				logged.Add(1)
			}
		}}
		p, err := Compile("flood.js", []byte(`globalThis.render = (req) => {
			const n = Number(req.query.n);
			for (let k = 0; k < n; k++) console.log("line " + k + " " + "x".repeat(Number(req.query.len || 1)));
			return "ok";
		};`))
		if err != nil {
			t.Fatal(err)
		}
		iso, err := NewIsolate(p, Options{Log: slog.New(h), ConsoleLines: 10})
		if err != nil {
			t.Fatal(err)
		}
		defer iso.Close()
		mustRender(t, iso, get("/?n=10000"))
		if n := logged.Load(); n != consoleBurst {
			t.Fatalf("%d lines logged in one burst of 10,000, want %d", n, consoleBurst)
		}
		time.Sleep(10 * time.Second) // fake time: the bucket refills 50 lines a second
		mustRender(t, iso, get("/?n=1000"))
		if n := logged.Load(); n != 2*consoleBurst {
			t.Fatalf("%d lines logged after 10 s more, want %d", n, 2*consoleBurst)
		}
		if got := leftOut.Load(); got != 10000-consoleBurst {
			t.Fatalf("%d lines reported left out, want %d", got, 10000-consoleBurst)
		}
		if tail := iso.Console(); len(tail) != 10 || !strings.HasPrefix(tail[9].Text, "line 999 ") {
			t.Fatalf("console tail %d lines, last %q", len(tail), tail[len(tail)-1].Text)
		}
		mustRender(t, iso, get("/?n=1&len=100000"))
		if last := iso.Console()[9].Text; len(last) > maxConsoleLine+64 || !strings.Contains(last, "more bytes") {
			t.Fatalf("a 100 KB line was kept whole (%d bytes)", len(last))
		}
	})
}

type countHandler struct{ fn func(slog.Record) }

func (h countHandler) Enabled(context.Context, slog.Level) bool      { return true }
func (h countHandler) Handle(_ context.Context, r slog.Record) error { h.fn(r); return nil }
func (h countHandler) WithAttrs([]slog.Attr) slog.Handler            { return h }
func (h countHandler) WithGroup(string) slog.Handler                 { return h }
