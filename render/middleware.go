package render

import (
	"context"
	"log/slog"
	"net/http"
	"runtime/debug"
	"time"

	"github.com/go-chi/chi/v5/middleware"
)

type logKey struct{}

// reqLog is filled by handlers and read by the access log.
type reqLog struct{ worker int }

func setWorker(r *http.Request, id int) {
	if l, ok := r.Context().Value(logKey{}).(*reqLog); ok {
		l.worker = id
	}
}

// accessLog writes one line per request: method, path, status, bytes,
// duration and the worker that rendered it (-1 when none did).
func (s *Server) accessLog(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		l := &reqLog{worker: -1}
		ww := middleware.NewWrapResponseWriter(w, r.ProtoMajor)
		next.ServeHTTP(ww, r.WithContext(context.WithValue(r.Context(), logKey{}, l)))
		status := ww.Status()
		if status == 0 {
			status = http.StatusOK
		}
		s.log.LogAttrs(r.Context(), slog.LevelInfo, "request",
			slog.String("method", r.Method), slog.String("path", r.URL.Path), slog.Int("status", status),
			slog.Int("bytes", ww.BytesWritten()), slog.Float64("duration_ms", float64(time.Since(start).Microseconds())/1000), slog.Int("worker", l.worker))
	})
}

// recoverer turns a panic in a handler into a 500 for that request only.
func (s *Server) recoverer(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		defer func() {
			if v := recover(); v != nil {
				if v == http.ErrAbortHandler {
					panic(v)
				}
				s.log.Error("handler panicked", "path", r.URL.Path, "panic", v, "stack", string(debug.Stack()))
				writeErrorPage(w, http.StatusInternalServerError, "")
			}
		}()
		next.ServeHTTP(w, r)
	})
}
