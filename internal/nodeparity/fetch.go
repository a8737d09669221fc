package nodeparity

import (
	"bext/internal/testenv"
	"bufio"
	"bytes"
	_ "embed"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os/exec"
	"slices"
	"strings"
	"testing"
	"time"
)

//go:embed node-fetch-server.cjs
var fetchServerScript []byte

// ServeFetch serves the fetch(request, env, ctx) handler that bundle (a
// bext server bundle) default-exports with Node's http module
// (node-fetch-server.cjs), passing env as the handler's env and in
// process.env, and returns the server's base URL (http://127.0.0.1:PORT).
// The process is killed when the test ends; what it wrote to stderr is
// logged if the test failed.
func ServeFetch(t testing.TB, bundle []byte, env map[string]string) string {
	t.Helper()
	node := Node(t)
	script, file := writeRunner(t, "node-fetch-server.cjs", fetchServerScript, bundle)
	envJSON, err := json.Marshal(env)
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(node, script, file, string(envJSON))
	stderr := &testenv.Buffer{}
	cmd.Stderr = stderr
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
		if t.Failed() && stderr.Len() > 0 {
			t.Logf("node-fetch-server.cjs stderr:\n%s", stderr.String())
		}
	})
	port := make(chan string, 1)
	go func() {
		line, _ := bufio.NewReader(stdout).ReadString('\n')
		port <- strings.TrimSpace(strings.TrimPrefix(line, "listening "))
		_, _ = io.Copy(io.Discard, stdout)
	}()
	select {
	case p := <-port:
		if p == "" {
			t.Fatalf("node-fetch-server.cjs exited before listening:\n%s", stderr.String())
		}
		return "http://127.0.0.1:" + p
	case <-time.After(30 * time.Second):
		t.Fatalf("node-fetch-server.cjs did not listen within 30 s:\n%s", stderr.String())
		return ""
	}
}

// HTTPRequest is one request sent alike to bext and to Node.
type HTTPRequest struct {
	Name   string // for messages; defaults to "METHOD PATH"
	Method string // "" = GET
	Path   string // path and query, sent as is
	Host   string // Host header ("" = the server's address); fix it when the app echoes its URL
	Header http.Header
	Body   []byte
}

func (r HTTPRequest) String() string {
	if r.Name != "" {
		return r.Name
	}
	m := r.Method
	if m == "" {
		m = http.MethodGet
	}
	return m + " " + r.Path
}

// Exchange is a response as the client received it: no decompression, no
// redirect followed.
type Exchange struct {
	Status int
	Header http.Header
	Body   []byte
}

// Client is the HTTP client of parity tests: it follows no redirect and
// asks for no compression (so a body compares byte for byte as sent).
func Client() *http.Client {
	return &http.Client{
		Transport:     &http.Transport{DisableCompression: true},
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
		Timeout:       60 * time.Second,
	}
}

// Do sends r to the server at base (http://host:port) and reads the whole
// response.
func Do(t testing.TB, c *http.Client, base string, r HTTPRequest) Exchange {
	t.Helper()
	method := r.Method
	if method == "" {
		method = http.MethodGet
	}
	var body io.Reader
	if r.Body != nil {
		body = bytes.NewReader(r.Body)
	}
	req, err := http.NewRequestWithContext(t.Context(), method, base+r.Path, body)
	if err != nil {
		t.Fatal(err)
	}
	for k, v := range r.Header {
		req.Header[k] = slices.Clone(v)
	}
	if r.Host != "" {
		req.Host = r.Host
	}
	resp, err := c.Do(req)
	if err != nil {
		t.Fatalf("%s to %s: %v", r, base, err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatalf("%s to %s: reading the body: %v", r, base, err)
	}
	return Exchange{Status: resp.StatusCode, Header: resp.Header, Body: b}
}

// Framing are the headers no comparison looks at: they describe the
// connection and how the body is framed (chunked or Content-Length, which
// Go and Node choose differently for the same bytes), not the response.
// Date is the clock.
var Framing = []string{"Date", "Connection", "Keep-Alive", "Transfer-Encoding", "Content-Length"}

// DiffHTTP compares bext's response with Node's: the status, every header
// but Framing, and the body bytes. A header only bext sent whose name is
// in bextOnly is not a difference; the names of those it met are returned
// in ignored. Each difference is one line of diffs.
func DiffHTTP(bext, node Exchange, bextOnly []string) (diffs, ignored []string) {
	if bext.Status != node.Status {
		diffs = append(diffs, fmt.Sprintf("status: bext %d, node %d", bext.Status, node.Status))
	}
	names := map[string]bool{}
	for k := range bext.Header {
		names[http.CanonicalHeaderKey(k)] = true
	}
	for k := range node.Header {
		names[http.CanonicalHeaderKey(k)] = true
	}
	keys := make([]string, 0, len(names))
	for k := range names {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		if slices.ContainsFunc(Framing, func(f string) bool { return strings.EqualFold(f, k) }) {
			continue
		}
		b, n := bext.Header.Values(k), node.Header.Values(k)
		if slices.Equal(b, n) {
			continue
		}
		if len(n) == 0 && slices.ContainsFunc(bextOnly, func(f string) bool { return strings.EqualFold(f, k) }) {
			ignored = append(ignored, k)
			continue
		}
		diffs = append(diffs, fmt.Sprintf("header %s: bext %q, node %q", k, b, n))
	}
	if !bytes.Equal(bext.Body, node.Body) {
		diffs = append(diffs, "body: "+Diff(string(bext.Body), string(node.Body)))
	}
	return diffs, ignored
}
