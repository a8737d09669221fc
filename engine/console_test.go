package engine

import (
	"bytes"
	"encoding/json"
	"log/slog"
	"strings"
	"testing"
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
