package fetch_test

import (
	"bytes"
	"compress/flate"
	"compress/gzip"
	"compress/zlib"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
)

// testServer is the loopback server the fetch tests (Go and the
// conformance cases, in bext and in Node) talk to. It never sleeps:
// handlers that must wait block on channels or on their request's end.
type testServer struct {
	*httptest.Server
	hang   chan struct{} // a /hang or /half request arrived
	next   chan struct{} // /next: release the next chunk of /chunks
	closed string        // an origin nothing listens on
}

func newTestServer(t testing.TB) *testServer {
	ts := &testServer{hang: make(chan struct{}, 64), next: make(chan struct{})}
	ts.Server = httptest.NewServer(http.HandlerFunc(ts.serve))
	t.Cleanup(ts.Close)
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ts.closed = "http://" + l.Addr().String()
	l.Close()
	return ts
}

func (ts *testServer) serve(w http.ResponseWriter, r *http.Request) {
	parts := strings.Split(strings.TrimPrefix(r.URL.Path, "/"), "/")
	arg := func(i int) int {
		if i < len(parts) {
			n, _ := strconv.Atoi(parts[i])
			return n
		}
		return 0
	}
	switch parts[0] {
	case "echo":
		body, _ := io.ReadAll(r.Body)
		h := map[string]string{}
		for k, v := range r.Header {
			h[strings.ToLower(k)] = strings.Join(v, ", ")
		}
		if len(r.TransferEncoding) > 0 {
			h["transfer-encoding"] = strings.Join(r.TransferEncoding, ", ")
		}
		if r.ContentLength >= 0 && (r.ContentLength > 0 || r.Header.Get("Content-Length") != "" || r.Method == "POST" && len(r.TransferEncoding) == 0) {
			h["content-length"] = strconv.FormatInt(r.ContentLength, 10)
		}
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(map[string]any{"method": r.Method, "url": r.URL.RequestURI(), "headers": h, "body": string(body)})
	case "redirect":
		code, n := arg(1), arg(2)
		if n <= 0 {
			r.URL.Path = "/echo"
			ts.serve(w, r)
			return
		}
		w.Header().Set("Location", fmt.Sprintf("/redirect/%d/%d", code, n-1))
		w.WriteHeader(code)
		_, _ = io.WriteString(w, "redirecting")
	case "nolocation":
		w.WriteHeader(302)
	case "status":
		w.WriteHeader(arg(1))
	case "cookies":
		w.Header().Add("Set-Cookie", "a=1")
		w.Header().Add("Set-Cookie", "b=2")
		w.Header().Add("X-Multi", "1")
		w.Header().Add("X-Multi", "2")
	case "encoded":
		var b bytes.Buffer
		var zw io.WriteCloser
		coding := parts[1]
		switch coding {
		case "gzip":
			zw = gzip.NewWriter(&b)
		case "deflate":
			zw = zlib.NewWriter(&b)
		case "deflate-raw":
			zw, _ = flate.NewWriter(&b, 5)
			coding = "deflate"
		}
		reps := 100
		if n, err := strconv.Atoi(r.URL.Query().Get("n")); err == nil {
			reps = n
		}
		_, _ = io.WriteString(zw, strings.Repeat("hello ", reps))
		_ = zw.Close()
		w.Header().Set("Content-Encoding", coding)
		_, _ = w.Write(b.Bytes())
	case "bytes":
		n := arg(1)
		b := make([]byte, n)
		for i := range b {
			b[i] = byte(i % 251)
		}
		w.Header().Set("Content-Type", "application/octet-stream")
		_, _ = w.Write(b)
	case "big": // an endless body, unless the client goes away
		w.Header().Set("Content-Type", "application/octet-stream")
		chunk := make([]byte, 64<<10)
		for r.Context().Err() == nil {
			if _, err := w.Write(chunk); err != nil {
				return
			}
		}
	case "hang":
		ts.hang <- struct{}{}
		<-r.Context().Done()
	case "wait-hang":
		select {
		case <-ts.hang:
		case <-r.Context().Done():
		}
	case "half":
		_, _ = io.WriteString(w, "first")
		w.(http.Flusher).Flush()
		ts.hang <- struct{}{}
		<-r.Context().Done()
	case "chunks":
		for i := range arg(1) {
			if i > 0 {
				select {
				case <-ts.next:
				case <-r.Context().Done():
					return
				}
			}
			fmt.Fprintf(w, "chunk %d;", i)
			w.(http.Flusher).Flush()
		}
	case "next":
		select {
		case ts.next <- struct{}{}:
		case <-r.Context().Done():
		}
	default:
		http.NotFound(w, r)
	}
}
