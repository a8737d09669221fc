package render

import (
	"io"

	"bext/cache"
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

// The admin access model. Admin routes are served in two places:
//
//   - The admin listener ([admin] addr, by default loopback or a unix
//     socket of its own, as Caddy's admin endpoint): a client is trusted
//     when its TCP peer is loopback (or it came through the unix socket)
//     and it carries no forwarding header at all — a reverse proxy or relay
//     on the same host acts for remote clients, so its requests are not
//     local — or when it sends the bearer token.
//   - The public listener: loopback means nothing there (a same-host relay
//     that adds no header would make every remote client local), so state
//     changes need the bearer token, and reads the token or public_read.
//
// RemoteAddr must be the real peer: nothing may rewrite it from headers
// before this check (chi's middleware.RealIP must not wrap these routes).

// forwardingHeaders mark a request relayed for someone else. Present with
// any value, even empty or blank, they make a request non-local.
var forwardingHeaders = []string{"Forwarded", "X-Forwarded-For", "X-Forwarded-Host", "X-Forwarded-Proto",
	"X-Real-Ip", "True-Client-Ip", "X-Client-Ip", "Cf-Connecting-Ip", "Fastly-Client-Ip", "X-Cluster-Client-Ip", "Via"}

// hasToken reports whether r carries the configured bearer token.
func (s *Server) hasToken(r *http.Request) bool {
	tok := s.opts.AdminToken
	if tok == "" {
		return false
	}
	got, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
	return ok && subtle.ConstantTimeCompare([]byte(got), []byte(tok)) == 1
}

// local reports whether r comes from this host itself, not through a relay.
func local(r *http.Request) bool {
	for _, h := range forwardingHeaders {
		if _, present := r.Header[h]; present {
			return false
		}
	}
	if r.RemoteAddr == "@" || r.RemoteAddr == "" {
		return isUnixConn(r) // a unix socket peer has no address
	}
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		return false
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// isUnixConn reports whether r arrived on a unix socket.
func isUnixConn(r *http.Request) bool {
	a, ok := r.Context().Value(http.LocalAddrContextKey).(net.Addr)
	return ok && a.Network() == "unix"
}

// adminAccess guards the admin routes; onAdminListener says which listener
// they are mounted on.
func (s *Server) adminAccess(onAdminListener bool) func(http.Handler) http.Handler {
	return func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			read := r.Method == http.MethodGet || r.Method == http.MethodHead
			ok := s.hasToken(r) || (read && s.opts.AdminPublicRead) || (onAdminListener && local(r))
			if ok {
				next.ServeHTTP(w, r)
				return
			}
			writeError(w, http.StatusForbidden, s.forbidden(onAdminListener, read))
		})
	}
}

// Guard is the admin access check of o's rules for routes mounted outside a
// Server (the many-apps admin API): see the package comment on access.
func Guard(o Options, onAdminListener bool) func(http.Handler) http.Handler {
	s := &Server{opts: o}
	return s.adminAccess(onAdminListener)
}

// WriteJSON answers with v as indented JSON, not cached.
func WriteJSON(w http.ResponseWriter, status int, v any) { writeJSON(w, status, v) }

// WriteError answers an admin request with {"error": msg}.
func WriteError(w http.ResponseWriter, status int, msg string) { writeError(w, status, msg) }

// forbidden says how to get access, offering the token only when one is
// configured.
func (s *Server) forbidden(onAdminListener, read bool) string {
	var ways []string
	if onAdminListener {
		ways = append(ways, "from this host without forwarding headers")
	} else {
		ways = append(ways, "on the admin listener ([admin] addr)")
	}
	if s.opts.AdminToken != "" {
		ways = append(ways, "with Authorization: Bearer <[admin] token>")
	}
	if read && !onAdminListener {
		ways = append(ways, "or for reads with [admin] public_read = true")
	}
	return "forbidden: the admin API answers " + strings.Join(ways, ", ")
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
	if id < 0 && s.opts.PageCache != nil {
		// A restart of every worker is how an operator makes new data or
		// code take effect: what the old workers rendered goes too.
		s.opts.PageCache.PurgeAll()
	}
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

// purgeCache purges the page cache by exact path, path prefix, tag or all,
// from a JSON body ({"path": …}) or the query (?prefix=…).
func (s *Server) purgeCache(w http.ResponseWriter, r *http.Request) {
	var sel cache.Selector
	if r.Body != nil && r.ContentLength != 0 {
		if err := json.NewDecoder(io.LimitReader(r.Body, 64<<10)).Decode(&sel); err != nil {
			writeError(w, http.StatusBadRequest, "the body must be JSON like {\"path\": \"/blog/hello\"}: "+err.Error())
			return
		}
	}
	q := r.URL.Query()
	if v := q.Get("path"); v != "" {
		sel.Path = v
	}
	if v := q.Get("prefix"); v != "" {
		sel.Prefix = v
	}
	if v := q.Get("tag"); v != "" {
		sel.Tag = v
	}
	if v := q.Get("all"); v == "true" || v == "1" {
		sel.All = true
	}
	n := 0
	for _, set := range []bool{sel.Path != "", sel.Prefix != "", sel.Tag != "", sel.All} {
		if set {
			n++
		}
	}
	if n != 1 {
		writeError(w, http.StatusBadRequest, "purge needs exactly one of path (exact path), prefix (path prefix), tag (a Cache-Tag) or all=true")
		return
	}
	purged := s.opts.PageCache.Purge(sel)
	s.log.Info("page cache purged", "path", sel.Path, "prefix", sel.Prefix, "tag", sel.Tag, "all", sel.All, "entries", purged, "remote", r.RemoteAddr)
	writeJSON(w, http.StatusOK, map[string]any{"purged": purged})
}

func (s *Server) cacheStats(w http.ResponseWriter, r *http.Request) {
	writeJSON(w, http.StatusOK, s.opts.PageCache.Stats())
}
