package cache

import (
	"bytes"
	"errors"
	"net/http"
	"sync"
)

var errTooLarge = errors.New("cache: response larger than an entry may be")

// recorder captures the response of the next handler. It buffers until
// the handler returns, so the cache can decide, hash and answer 304s; a
// handler that flushes is streaming, and from then on the recorder writes
// through to the client (w) while it keeps a copy to store once complete.
// With hold set (a stale copy may replace a failed render) it never
// writes through before the handler returns.
type recorder struct {
	w      http.ResponseWriter // the client; nil for a background revalidation
	header http.Header
	sent   http.Header // header as it was at WriteHeader (later changes do not count, as in net/http)
	status int
	body   *[]byte
	limit  int  // capture at most this many bytes
	over   bool // the body went past limit: it is not in body
	hold   bool // never commit early (stale-if-error window)
	head   bool // the client asked HEAD: no body goes to it

	// cacheStatus is sent when the recorder commits early (streaming).
	cacheStatus string
	committed   bool // status and headers went to w
	streamed    bool // the handler flushed and the body went through
	writeErr    error
	pooled      bool // body came from bufPool
}

var bufPool = sync.Pool{New: func() any { b := make([]byte, 0, 32<<10); return &b }}

// newRecorder makes a recorder whose buffer is pooled: for answers that
// are not kept.
func newRecorder(w http.ResponseWriter, limit int) *recorder {
	return &recorder{w: w, header: make(http.Header), limit: limit, body: bufPool.Get().(*[]byte), pooled: true}
}

// newFillRecorder makes a recorder whose body an entry may keep (take):
// a page written in one Write, as render writes it, is copied once.
func newFillRecorder(w http.ResponseWriter, limit int) *recorder {
	return &recorder{w: w, header: make(http.Header), limit: limit, body: new([]byte)}
}

// take hands the body over to an entry, trimmed when append left much
// spare capacity.
func (rec *recorder) take() []byte {
	b := *rec.body
	if rec.pooled || cap(b)-len(b) > len(b)/8+512 {
		return bytes.Clone(b)
	}
	*rec.body = nil
	return b
}

// release returns the capture buffer; the recorder's body is gone after.
func (rec *recorder) release() {
	if rec.pooled && rec.body != nil && cap(*rec.body) <= 1<<20 {
		*rec.body = (*rec.body)[:0]
		bufPool.Put(rec.body)
	}
	rec.body = nil
}

func (rec *recorder) Header() http.Header { return rec.header }

func (rec *recorder) WriteHeader(code int) {
	if rec.status != 0 || code < 200 {
		// A second status is ignored as net/http does; 1xx (Early Hints)
		// are dropped: a buffered answer has nothing to hint ahead of.
		return
	}
	rec.status = code
	rec.sent = rec.header.Clone()
}

// responseHeader is the header of the response: as it was when the status
// was written, or at the end when the handler wrote nothing.
func (rec *recorder) responseHeader() http.Header {
	if rec.sent != nil {
		return rec.sent
	}
	return rec.header
}

func (rec *recorder) Write(p []byte) (int, error) {
	if rec.status == 0 {
		rec.WriteHeader(http.StatusOK)
	}
	if !rec.over {
		if len(*rec.body)+len(p) <= rec.limit {
			*rec.body = append(*rec.body, p...)
			// A client that went away does not stop a render others
			// may wait for: its write errors are not the handler's.
			if rec.committed {
				rec.writeClient(p)
			}
			return len(p), nil
		}
		// Too large to keep: it will not be stored, so it goes to the
		// client as it comes (a stale copy is given up).
		rec.over = true
		if rec.w != nil && !rec.committed {
			rec.commit()
			rec.writeClient(*rec.body)
		}
	}
	if rec.w == nil {
		return 0, errTooLarge
	}
	rec.writeClient(p)
	return len(p), rec.writeErr
}

func (rec *recorder) writeClient(p []byte) {
	if rec.head || rec.writeErr != nil || len(p) == 0 {
		return
	}
	_, rec.writeErr = rec.w.Write(p)
}

// Flush starts streaming: what was written goes out now, the rest as it
// comes.
func (rec *recorder) Flush() {
	if rec.w == nil || rec.hold && !rec.over {
		return
	}
	if rec.status == 0 {
		rec.WriteHeader(http.StatusOK)
	}
	if !rec.committed {
		rec.commit()
		if !rec.over {
			rec.writeClient(*rec.body)
		}
	}
	rec.streamed = true
	if f, ok := rec.w.(http.Flusher); ok {
		f.Flush()
	}
}

// FlushError is http.ResponseController's flush.
func (rec *recorder) FlushError() error {
	rec.Flush()
	return rec.writeErr
}

// Unwrap lets http.ResponseController reach the connection (deadlines).
func (rec *recorder) Unwrap() http.ResponseWriter { return rec.w }

// commit sends status and headers to the client.
func (rec *recorder) commit() {
	rec.committed = true
	h := rec.w.Header()
	for k, v := range rec.responseHeader() {
		h[k] = v
	}
	if rec.cacheStatus != "" {
		h["Cache-Status"] = []string{rec.cacheStatus}
	}
	rec.w.WriteHeader(rec.status)
}

// complete reports whether the body captured is the whole body.
func (rec *recorder) complete() bool { return !rec.over }

func (rec *recorder) statusCode() int {
	if rec.status == 0 {
		return http.StatusOK
	}
	return rec.status
}
