package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"bext/internal/app"
	"bext/internal/apptest"
	"bext/pool"
)

// The CLI's own tests: commands parse flags, call the assembly and print.
// What the server does is tested beside the code (internal/app, render,
// pool, …).

const greetJS = "export const greet = (p) => 'hi ' + p;\n"

func TestBadInputFailsBeforeListening(t *testing.T) {
	cases := []struct {
		name  string
		cfg   string
		files map[string]string
		want  []string
	}{
		{"unknown key", "[app]\nserver_entry = \"s.js\"\n[render]\njsc_wrkers = 2\n", map[string]string{"s.js": "globalThis.render=()=>''"},
			[]string{"jsc_wrkers", ":4"}},
		{"zero workers", "[app]\nserver_entry = \"s.js\"\n[render]\njsc_workers = 0\n", map[string]string{"s.js": "globalThis.render=()=>''"},
			[]string{"jsc_workers", ":4"}},
		{"missing entry", "[app]\nserver_entry = \"nope.jsx\"\n", nil, []string{"server_entry", "nope.jsx"}},
		{"syntax error", "[app]\nserver_entry = \"s.jsx\"\n", map[string]string{"s.jsx": "globalThis.render = () => {\n  return <div>;\n};\n"},
			[]string{"s.jsx:2:"}},
		{"unresolved import", "[app]\nserver_entry = \"s.js\"\n", map[string]string{"s.js": "import x from './missing';\nglobalThis.render=()=>x;\n"},
			[]string{"s.js:1:", "./missing"}},
		{"throws at boot", "[app]\nserver_entry = \"s.js\"\n", map[string]string{"s.js": "throw new Error('kaboom at load');\n"},
			[]string{"kaboom at load"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			path := apptest.WriteApp(t, c.cfg, c.files)
			var out, errb bytes.Buffer
			code := run([]string{"serve", "-config", path, "-addr", "127.0.0.1:0"}, &out, &errb)
			if code == 0 {
				t.Fatalf("serve exited 0 on %s", c.name)
			}
			for _, w := range c.want {
				if !strings.Contains(errb.String(), w) {
					t.Errorf("error output lacks %q:\n%s", w, errb.String())
				}
			}
		})
	}
}

func TestPSAgainstRunningServer(t *testing.T) {
	path := apptest.WriteApp(t, "[app]\nserver_entry = \"src/server.js\"\n[render]\njsc_workers = 3\n", map[string]string{
		"src/server.js": apptest.TinyServer, "src/greet.js": greetJS})
	inst := apptest.Start(t, path, nil, app.Options{})
	for i := range 1200 {
		apptest.Get(t, fmt.Sprintf("http://%s/%d", inst.Addr(), i))
	}
	var out, errb bytes.Buffer
	if code := run([]string{"workers", "restart", "-addr", inst.AdminAddr(), "--worker", "2"}, &out, &errb); code != 0 {
		t.Fatalf("workers restart: %d %s", code, errb.String())
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := inst.Pool().WaitFor(ctx, func(ws []pool.WorkerStats) bool {
		return ws[2].Generation == 2 && ws[2].State == "ACTIVE"
	}); err != nil {
		t.Fatal("worker 2 not restarted")
	}
	out.Reset()
	if code := run([]string{"ps", "-addr", inst.AdminAddr()}, &out, &errb); code != 0 {
		t.Fatalf("ps: %d %s", code, errb.String())
	}
	lines := strings.Split(strings.TrimRight(out.String(), "\n"), "\n")
	if len(lines) != 6 || lines[0] != "Workers (3/3 active)" || !strings.HasPrefix(lines[5], "Page cache: 0.0% hits") {
		t.Fatalf("ps output:\n%s", out.String())
	}
	lines = lines[:5]
	hdr := strings.Fields(lines[1])
	if strings.Join(hdr, " ") != "ID State Health Requests Memory Uptime Avg Render" {
		t.Fatalf("header %q", lines[1])
	}
	col := strings.Index(lines[1], "Requests")
	total := 0
	for i, row := range lines[2:] {
		f := strings.Fields(row)
		if f[0] != fmt.Sprint(i) || f[1] != "ACTIVE" {
			t.Errorf("row %d: %q", i, row)
		}
		if len(row) < col || row[col-1] != ' ' {
			t.Errorf("row %d not aligned under the header: %q", i, row)
		}
		var n int
		fmt.Sscan(strings.ReplaceAll(f[3], ",", ""), &n) // ID State Health Requests …
		total += n
		if n >= 1000 && !strings.Contains(f[3], ",") {
			t.Errorf("row %d: %s lacks a thousands separator", i, f[3])
		}
		if !strings.HasSuffix(f[len(f)-1], "ms") {
			t.Errorf("row %d: avg render %q", i, f[len(f)-1])
		}
	}
	if ws := inst.Pool().Snapshot(); ws[2].RequestsServed != 0 || ws[2].LastRotationReason != "manual" {
		t.Errorf("worker 2 after manual restart: %+v", ws[2])
	}
	if total > 1200 || total < 1 {
		t.Errorf("rows count %d requests", total)
	}
	out.Reset()
	run([]string{"ps", "-json", "-addr", inst.AdminAddr()}, &out, &errb)
	var arr []pool.WorkerStats
	if err := json.Unmarshal(out.Bytes(), &arr); err != nil || len(arr) != 3 {
		t.Fatalf("ps -json: %v %s", err, out.String())
	}
	out.Reset()
	run([]string{"workers", "stats", "-addr", inst.AdminAddr()}, &out, &errb)
	for _, k := range []string{"Worker 0", "Worker 2", "requests_served", "peak_memory_bytes", "last_rotation_reason"} {
		if !strings.Contains(out.String(), k) {
			t.Errorf("workers stats lacks %q", k)
		}
	}
}

// bext cache stats and bext cache purge against a running server: the
// stats follow the traffic, a purge names what went, bad flags say what
// to give.
func TestCacheCommands(t *testing.T) {
	path := apptest.WriteApp(t, "[app]\nserver_entry = \"src/server.js\"\n", map[string]string{"src/server.js": `
globalThis.render = (req) => ({ headers: { "cache-control": "s-maxage=60", "cache-tag": "t" + req.path.length }, html: "<p>" + req.path + "</p>" });`})
	inst := apptest.Start(t, path, nil, app.Options{})
	for range 3 {
		for _, p := range []string{"/a", "/b", "/cc"} {
			apptest.Get(t, "http://"+inst.Addr()+p)
		}
	}
	cli := func(args ...string) (int, string, string) {
		var out, errb bytes.Buffer
		code := run(append(args, "-addr", inst.AdminAddr()), &out, &errb)
		return code, out.String(), errb.String()
	}
	code, out, errs := cli("cache", "stats")
	if code != 0 || !strings.HasPrefix(out, "Page cache: 66.7% hits (6 hit, 0 stale, 3 miss, 0 bypass), 3 entries") {
		t.Fatalf("cache stats: %d %q %s", code, out, errs)
	}
	if code, out, errs = cli("cache", "purge", "--tag", "t2"); code != 0 || out != "purged 2 cached response(s)\n" {
		t.Fatalf("cache purge --tag: %d %q %s", code, out, errs)
	}
	if code, out, _ = cli("cache", "purge", "--all"); code != 0 || out != "purged 1 cached response(s)\n" {
		t.Fatalf("cache purge --all: %d %q", code, out)
	}
	if code, _, errs = cli("cache", "purge"); code != 2 || !strings.Contains(errs, "--prefix") {
		t.Fatalf("cache purge without a selector: %d %q", code, errs)
	}
	if code, out, _ = cli("ps"); code != 0 || !strings.Contains(out, "Page cache: 66.7% hits") {
		t.Fatalf("ps lacks the hit ratio: %q", out)
	}
}

func TestPSWithNoServer(t *testing.T) {
	var out, errb bytes.Buffer
	code := run([]string{"ps", "-addr", "127.0.0.1:1"}, &out, &errb)
	msg := strings.TrimSpace(errb.String())
	if code != 1 || strings.Count(msg, "\n") != 0 || !strings.Contains(msg, "no bext server") {
		t.Fatalf("ps with no server: exit %d, %q", code, msg)
	}
}

// buildBinary builds bext once for the signal tests.
var buildBinary = sync.OnceValues(func() (string, error) {
	dir, err := os.MkdirTemp("", "bext-bin-")
	if err != nil {
		return "", err
	}
	bin := filepath.Join(dir, "bext")
	out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput()
	if err != nil {
		return "", fmt.Errorf("go build: %v\n%s", err, out)
	}
	return bin, nil
})

// startBinary runs `bext serve` as a child process, with both listeners on
// free ports (-addr, BEXT_ADMIN_ADDR), and returns the addresses of its
// public and admin listeners as it prints them.
func startBinary(t *testing.T, cfgPath string) (cmd *exec.Cmd, addr, admin string) {
	t.Helper()
	cmd, addr, admin, _ = startBinaryLog(t, cfgPath)
	return cmd, addr, admin
}

// startBinaryLog is startBinary that also hands over the child's log lines
// after the addresses (a buffered channel; lines beyond its room are dropped).
func startBinaryLog(t *testing.T, cfgPath string) (cmd *exec.Cmd, addr, admin string, lines <-chan string) {
	t.Helper()
	bin, err := buildBinary()
	if err != nil {
		t.Fatal(err)
	}
	cmd = exec.Command(bin, "serve", "-config", cfgPath, "-addr", "127.0.0.1:0")
	cmd.Env = append(os.Environ(), "BEXT_ADMIN_ADDR=127.0.0.1:0")
	stderr, _ := cmd.StderrPipe()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	found := make(chan [2]string, 1)
	logc := make(chan string, 256)
	go func() {
		sc := bufio.NewScanner(stderr)
		var a [2]string
		for sc.Scan() {
			if m := regexp.MustCompile(`serving http://(\S+)`).FindStringSubmatch(sc.Text()); m != nil {
				a[0] = m[1]
			}
			if m := regexp.MustCompile(`admin API on http://(\S+)`).FindStringSubmatch(sc.Text()); m != nil {
				a[1] = m[1]
			}
			if a[0] != "" && a[1] != "" {
				found <- a
				break
			}
		}
		for sc.Scan() {
			select {
			case logc <- sc.Text():
			default:
			}
		}
		close(logc)
	}()
	select {
	case a := <-found:
		return cmd, a[0], a[1], logc
	case <-time.After(60 * time.Second):
		t.Fatal("bext serve did not print its addresses")
	}
	return nil, "", "", nil
}

const slowServer = `globalThis.render = async (req) => {
	if (req.path === "/slow") await new Promise(r => setTimeout(r, 500));
	return "<p>done " + req.path + "</p>";
};`

func TestSIGTERMFinishesInFlightAndExitsZero(t *testing.T) {
	path := apptest.WriteApp(t, "[app]\nserver_entry = \"s.js\"\n[render]\njsc_workers = 2\n", map[string]string{"s.js": slowServer})
	cmd, addr, admin := startBinary(t, path)
	res := make(chan string, 1)
	go func() {
		resp, err := http.Get("http://" + addr + "/slow")
		if err != nil {
			res <- err.Error()
			return
		}
		b, _ := io.ReadAll(resp.Body)
		res <- fmt.Sprint(resp.StatusCode, " ", string(b))
	}()
	waitFor(t, admin, func(ws []pool.WorkerStats) bool { // the slow render is in flight
		n := 0
		for _, w := range ws {
			n += w.InFlight
		}
		return n == 1
	})
	cmd.Process.Signal(syscall.SIGTERM)
	if got := <-res; got != "200 <p>done /slow</p>" {
		t.Fatalf("in-flight request during SIGTERM: %q", got)
	}
	if err := cmd.Wait(); err != nil {
		t.Fatalf("exit after SIGTERM: %v, want 0", err)
	}
}

// hangServer's /hang waits ten minutes: only a drain deadline ends it.
const hangServer = `globalThis.render = async (req) => {
	if (req.path === "/hang") await new Promise(r => setTimeout(r, 600000));
	return "<p>done " + req.path + "</p>";
};`

// getAsync requests url in the background; the channel gets "status body"
// or the error.
func getAsync(url string) <-chan string {
	res := make(chan string, 1)
	go func() {
		resp, err := http.Get(url)
		if err != nil {
			res <- "error: " + err.Error()
			return
		}
		b, err := io.ReadAll(resp.Body)
		resp.Body.Close()
		if err != nil {
			res <- "error: " + err.Error()
			return
		}
		res <- fmt.Sprint(resp.StatusCode, " ", string(b))
	}()
	return res
}

func inFlight(n int) func([]pool.WorkerStats) bool {
	return func(ws []pool.WorkerStats) bool {
		sum := 0
		for _, w := range ws {
			sum += w.InFlight
		}
		return sum == n
	}
}

// A render still running when drain_timeout_ms runs out is answered 503
// (not cut off), and the process exits 0 about drain_timeout_ms after the
// signal — not twice that, as when the listeners and then the pool each
// waited a full drain.
func TestShutdownEndsAtTheDrainDeadline(t *testing.T) {
	const drain = 5 * time.Second
	path := apptest.WriteApp(t, fmt.Sprintf("[app]\nserver_entry = \"s.js\"\n[render]\njsc_workers = 2\nrender_timeout_ms = 900000\n[render.lifecycle]\ndrain_timeout_ms = %d\n", drain.Milliseconds()),
		map[string]string{"s.js": hangServer})
	cmd, addr, admin := startBinary(t, path)
	res := getAsync("http://" + addr + "/hang")
	waitFor(t, admin, inFlight(1))
	start := time.Now()
	cmd.Process.Signal(syscall.SIGTERM)
	if got := <-res; !strings.HasPrefix(got, "503 ") {
		t.Fatalf("render in flight at the drain deadline: %q, want a 503", got)
	}
	if err := cmd.Wait(); err != nil {
		t.Fatalf("exit after SIGTERM: %v, want 0", err)
	}
	// drain + the second of grace + a margin for a loaded machine; the
	// old sequence took 2 × drain + 1 s.
	if took := time.Since(start); took > drain+3*time.Second {
		t.Fatalf("shutdown took %v with drain_timeout_ms %v", took, drain)
	}
}

// A second SIGTERM while the first drains exits at once, with a log line
// saying so, instead of waiting out a long drain_timeout_ms.
func TestSecondSignalExitsAtOnce(t *testing.T) {
	path := apptest.WriteApp(t, "[app]\nserver_entry = \"s.js\"\n[render]\nrender_timeout_ms = 900000\n[render.lifecycle]\ndrain_timeout_ms = 600000\n",
		map[string]string{"s.js": hangServer})
	cmd, addr, admin, lines := startBinaryLog(t, path)
	getAsync("http://" + addr + "/hang")
	waitFor(t, admin, inFlight(1))
	cmd.Process.Signal(syscall.SIGTERM)
	for line := range lines { // the first signal is being acted on
		if strings.Contains(line, "shutting down") {
			break
		}
	}
	cmd.Process.Signal(syscall.SIGTERM)
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	select {
	case err := <-exited:
		var ee *exec.ExitError
		if !errors.As(err, &ee) || ee.ExitCode() != 1 {
			t.Fatalf("exit after a second SIGTERM: %v, want status 1", err)
		}
	case <-time.After(60 * time.Second): // the drain would take ten minutes
		t.Fatal("a second SIGTERM did not end the process")
	}
	for line := range lines {
		if strings.Contains(line, "second signal") {
			return
		}
	}
	t.Fatal("no log line for the second signal")
}

func TestSIGHUPRestartsAllWorkers(t *testing.T) {
	path := apptest.WriteApp(t, "[app]\nserver_entry = \"s.js\"\n[render]\njsc_workers = 2\n", map[string]string{"s.js": slowServer})
	cmd, _, admin := startBinary(t, path)
	cmd.Process.Signal(syscall.SIGHUP)
	waitFor(t, admin, func(ws []pool.WorkerStats) bool {
		done := len(ws) == 2
		for _, w := range ws {
			done = done && w.Restarts == 1 && w.LastRotationReason == "manual" && w.State == "ACTIVE"
		}
		return done
	})
}

// waitFor polls a child server's /__bext/workers (on its admin listener)
// until ok (20 s at most): no fake clock or hook reaches another process.
func waitFor(t *testing.T, addr string, ok func([]pool.WorkerStats) bool) {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	var ws []pool.WorkerStats
	for time.Now().Before(deadline) {
		ws = nil
		resp, err := http.Get("http://" + addr + "/__bext/workers")
		if err == nil {
			json.NewDecoder(resp.Body).Decode(&ws)
			resp.Body.Close()
		}
		if ok(ws) {
			return
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Fatalf("workers never reached the expected state: %+v", ws)
}
