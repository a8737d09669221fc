package render

import (
	"log/slog"
	"net/http"
	"os"
	"sync"
	"sync/atomic"
	"time"

	"github.com/go-chi/chi/v5"
	"github.com/go-chi/chi/v5/middleware"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"bext/cache"
	"bext/pool"
)

// Options configure the HTTP surface.
type Options struct {
	PublicDir    string // static files; "" or missing = none
	Gzip         bool
	MaxBodyBytes int64
	QueueTimeout time.Duration // for Retry-After
	AccessLog    bool
	Dev          bool // show error stacks in responses

	AdminToken      string // Bearer token that makes any client trusted
	AdminPublicRead bool   // untrusted clients may read admin GET routes
	// AdminSeparate: the admin routes have a listener of their own
	// (AdminHandler, [admin] addr); Handler then serves them only to
	// requests with the token or, for reads, with public_read — else the
	// paths are the app's.
	AdminSeparate bool

	Registry *prometheus.Registry // /metrics; nil = no metrics route
	Log      *slog.Logger

	// TransformHTML, in dev, is applied to every SSR HTML body (the
	// live-reload client). A body the engine writes as it is produced (a
	// stream) is followed by TransformHTML("") instead.
	TransformHTML func(html string) string

	// PageCache, if set, serves cacheable pages (see package cache) and
	// answers /__bext/cache/purge and /__bext/cache/stats.
	PageCache *cache.Cache
}

// Server holds what the handlers serve: one pool for its whole life (a
// config change makes a new Server), and client assets that a rebuild may
// swap while serving.
type Server struct {
	opts     Options
	log      *slog.Logger
	pool     *pool.Pool
	assets   atomic.Pointer[Assets]
	static   http.Handler
	root     *os.Root
	cached   http.Handler // the render behind the page cache; nil without one
	shutting atomic.Bool
	warned   sync.Map // keys of warnOnce
	nwarned  atomic.Int64
}

// warnOnce logs msg once per key (a route and what went wrong), for at
// most 1,000 keys: a problem repeated on every request is one log line.
func (s *Server) warnOnce(key, msg string, args ...any) {
	if s.nwarned.Load() >= 1000 {
		return
	}
	if _, seen := s.warned.LoadOrStore(key, true); !seen {
		s.nwarned.Add(1)
		s.log.Warn(msg, args...)
	}
}

// New makes a Server rendering through p.
func New(p *pool.Pool, o Options) (*Server, error) {
	if o.Log == nil {
		o.Log = slog.Default()
	}
	s := &Server{opts: o, log: o.Log, pool: p}
	if o.PageCache != nil {
		s.cached = o.PageCache.Middleware(http.HandlerFunc(s.render))
	}
	s.assets.Store(&Assets{})
	if o.PublicDir != "" {
		if fi, err := os.Stat(o.PublicDir); err == nil && fi.IsDir() {
			root, err := os.OpenRoot(o.PublicDir)
			if err != nil {
				return nil, err
			}
			s.root = root
			s.static = http.FileServerFS(root.FS())
		}
	}
	return s, nil
}

// Pool is the pool requests go to.
func (s *Server) Pool() *pool.Pool { return s.pool }

// SetAssets swaps the client assets served under /_bext/.
func (s *Server) SetAssets(a *Assets) { s.assets.Store(a) }

// ShuttingDown makes /readyz answer 503 from now on.
func (s *Server) ShuttingDown() { s.shutting.Store(true) }

// Handler is the main listener's router.
func (s *Server) Handler() http.Handler {
	r := chi.NewRouter()
	r.Use(s.recoverer)
	if s.opts.AccessLog {
		r.Use(s.accessLog)
	}
	if s.opts.Gzip {
		r.Use(middleware.Compress(5, "text/html", "text/css", "text/plain", "text/javascript",
			"application/javascript", "application/json", "image/svg+xml"))
	}
	r.Get("/healthz", s.healthz)
	r.Get("/readyz", s.readyz)
	if !s.opts.AdminSeparate || s.opts.AdminToken != "" || s.opts.AdminPublicRead {
		s.mountAdmin(r, false)
	}
	r.Get("/_bext/*", s.serveAsset)
	r.Head("/_bext/*", s.serveAsset)
	r.NotFound(s.serveApp)
	return r
}

// AdminHandler serves only the admin routes (for [admin] addr).
func (s *Server) AdminHandler() http.Handler {
	r := chi.NewRouter()
	r.Use(s.recoverer)
	if s.opts.AccessLog {
		r.Use(s.accessLog)
	}
	r.Get("/healthz", s.healthz)
	r.Get("/readyz", s.readyz)
	s.mountAdmin(r, true)
	return r
}

func (s *Server) mountAdmin(r chi.Router, onAdminListener bool) {
	r.Group(func(r chi.Router) {
		r.Use(s.adminAccess(onAdminListener))
		r.Get("/__bext/workers", s.listWorkers)
		// Registered for every method first so GET is 405, not worker "restart".
		r.HandleFunc("/__bext/workers/restart", methodNotAllowed("POST"))
		r.Post("/__bext/workers/restart", s.restartWorkers)
		r.Get("/__bext/workers/{id}", s.getWorker)
		if s.opts.PageCache != nil {
			r.HandleFunc("/__bext/cache/purge", methodNotAllowed("POST"))
			r.Post("/__bext/cache/purge", s.purgeCache)
			r.Get("/__bext/cache/stats", s.cacheStats)
		}
		if s.opts.Registry != nil {
			r.Method(http.MethodGet, "/metrics", promhttp.HandlerFor(s.opts.Registry, promhttp.HandlerOpts{ErrorLog: slog.NewLogLogger(s.log.Handler(), slog.LevelError)}))
		}
	})
}

func methodNotAllowed(allow string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Allow", allow)
		writeError(w, http.StatusMethodNotAllowed, r.Method+" not allowed; use "+allow)
	}
}

func (s *Server) healthz(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	w.Write([]byte("ok\n"))
}

func (s *Server) readyz(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	if s.shutting.Load() || !s.Pool().Ready() {
		w.WriteHeader(http.StatusServiceUnavailable)
		w.Write([]byte("not ready\n"))
		return
	}
	w.Write([]byte("ready\n"))
}
