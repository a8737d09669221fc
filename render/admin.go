package render

import (
	"crypto/subtle"
	"encoding/json"
	"errors"
	"net"
	"net/http"
	"strconv"
	"strings"

	"github.com/go-chi/chi/v5"

	"bext/lifecycle"
	"bext/pool"
)

// trusted reports whether r may use the admin API: its TCP peer is loopback
// and it carries no forwarding header (a reverse proxy on the same host
// relays remote clients, so its requests are not local), or it presents the
// admin bearer token. RemoteAddr must be the real peer: nothing may rewrite
// it from headers before this check.
func (s *Server) trusted(r *http.Request) bool {
	if tok := s.opts.AdminToken; tok != "" {
		if got, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer "); ok &&
			subtle.ConstantTimeCompare([]byte(got), []byte(tok)) == 1 {
			return true
		}
	}
	for _, h := range []string{"Forwarded", "X-Forwarded-For", "X-Real-Ip"} {
		if r.Header.Get(h) != "" {
			return false
		}
	}
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		return false
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

func (s *Server) adminAccess(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		read := r.Method == http.MethodGet || r.Method == http.MethodHead
		if s.trusted(r) || (read && s.opts.AdminPublicRead) {
			next.ServeHTTP(w, r)
			return
		}
		writeError(w, http.StatusForbidden, "forbidden: the admin API answers loopback clients without forwarding headers, or requests with Authorization: Bearer <[admin] token>")
	})
}

func (s *Server) listWorkers(w http.ResponseWriter, r *http.Request) {
	writeJSON(w, http.StatusOK, s.Pool().Snapshot())
}

func (s *Server) getWorker(w http.ResponseWriter, r *http.Request) {
	id, err := strconv.Atoi(chi.URLParam(r, "id"))
	if err != nil {
		writeError(w, http.StatusNotFound, "no worker "+strconv.Quote(chi.URLParam(r, "id"))+": ids are numbers")
		return
	}
	d, err := s.Pool().Worker(id)
	if err != nil {
		writeError(w, http.StatusNotFound, "no worker "+strconv.Itoa(id)+" (this pool has "+strconv.Itoa(s.Pool().Size())+")")
		return
	}
	writeJSON(w, http.StatusOK, d)
}

func (s *Server) restartWorkers(w http.ResponseWriter, r *http.Request) {
	id := -1
	if v := r.URL.Query().Get("worker"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 0 {
			writeError(w, http.StatusBadRequest, "worker must be a slot id (0, 1, …), got "+strconv.Quote(v))
			return
		}
		id = n
	}
	ids, err := s.Pool().Restart(id, lifecycle.ReasonManual)
	switch {
	case errors.Is(err, pool.ErrNoSuchWorker):
		writeError(w, http.StatusNotFound, err.Error())
		return
	case err != nil:
		writeError(w, http.StatusServiceUnavailable, err.Error())
		return
	}
	s.log.Info("workers restart requested", "workers", ids, "remote", r.RemoteAddr)
	writeJSON(w, http.StatusAccepted, map[string]any{"scheduled": ids, "reason": lifecycle.ReasonManual})
}

// writeError answers an admin request with {"error": msg}.
func writeError(w http.ResponseWriter, status int, msg string) {
	writeJSON(w, status, map[string]string{"error": msg})
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.Encode(v)
}
