package render

import (
	"mime"
	"net/http"
	"path"
	"strings"
	"time"
)

// Assets are the built client files served under /_bext/. Hashed names
// change with their content, so they are cached for a year; Dev assets keep
// stable names and are revalidated on every load.
type Assets struct {
	Files   map[string][]byte // name (no leading slash) -> content
	Hashed  bool
	ModTime time.Time
}

// Prefix is the URL folder of client assets.
const Prefix = "/_bext/"

func (s *Server) serveAsset(w http.ResponseWriter, r *http.Request) {
	a := s.assets.Load()
	name := strings.TrimPrefix(r.URL.Path, Prefix)
	body, ok := a.Files[name]
	if !ok {
		http.NotFound(w, r)
		return
	}
	ct := mime.TypeByExtension(path.Ext(name))
	if ct == "" {
		ct = "application/octet-stream"
	}
	w.Header().Set("Content-Type", ct)
	if a.Hashed {
		w.Header().Set("Cache-Control", "public, max-age=31536000, immutable")
	} else {
		w.Header().Set("Cache-Control", "no-cache")
	}
	http.ServeContent(w, r, name, a.ModTime, strings.NewReader(string(body)))
}
