package devserver

import (
	"encoding/json"
	"fmt"
	"net/http"
	"sync"
	"time"
)

// LiveReloadPath is where the Hub is mounted and where ClientScript connects.
const LiveReloadPath = "/__bext/livereload"

// Heartbeat is how often an idle stream carries a comment line, so proxies
// and load balancers with idle timeouts keep the connection open.
const Heartbeat = 15 * time.Second

// clientBuffer is how many events a browser may fall behind before the hub
// drops it (it reconnects and reloads). Events are rare — one per rebuild —
// so only a stuck connection ever fills it.
const clientBuffer = 16

// Hub broadcasts live-reload events to browsers over Server-Sent Events. As
// in Hugo's livereload hub, one goroutine owns the set of connections and the
// current error; handlers and callers talk to it over channels, so there is
// no lock around the set.
//
// Events: "reload" (reload the page), "error" (show the overlay; data is the
// ErrorOverlay as JSON), "ok" (the error is fixed: remove the overlay and
// reload). The hub remembers the last error until Clear, and sends it to a
// browser as soon as it connects.
type Hub struct {
	register   chan *sseClient
	unregister chan *sseClient
	broadcast  chan event
	done       chan struct{} // closed by Close
	stopped    chan struct{} // closed when run has returned
	once       sync.Once
}

type event struct{ name, data string }

type sseClient struct{ send chan event }

// NewHub starts a hub. Call Close to end it and its streams.
func NewHub() *Hub {
	h := &Hub{
		register:   make(chan *sseClient),
		unregister: make(chan *sseClient),
		broadcast:  make(chan event),
		done:       make(chan struct{}),
		stopped:    make(chan struct{}),
	}
	go h.run()
	return h
}

// Reload tells every browser to reload the page. It does not clear an active
// error: a client-only rebuild can succeed while the server bundle is still
// broken; call Clear when the error is fixed.
func (h *Hub) Reload() { h.send(event{"reload", "{}"}) }

// Error shows the overlay in every browser, now and on later connections,
// until Clear.
func (h *Hub) Error(msg ErrorOverlay) {
	if msg.Title == "" {
		msg.Title = TitleBuildFailed
	}
	if msg.Text == "" {
		msg.Text = msg.format()
	}
	data, err := json.Marshal(msg) // one line: newlines in strings are escaped
	if err != nil {
		panic(err) // strings and ints only; cannot fail
	}
	h.send(event{"error", string(data)})
}

// Clear tells browsers the error is fixed (they remove the overlay and
// reload) and forgets it.
func (h *Hub) Clear() { h.send(event{"ok", "{}"}) }

// Close ends every stream and the hub. Later calls to Reload, Error and
// Clear do nothing. It is safe to call more than once.
func (h *Hub) Close() {
	h.once.Do(func() { close(h.done) })
	<-h.stopped
}

func (h *Hub) send(e event) {
	select {
	case h.broadcast <- e:
	case <-h.done:
	}
}

func (h *Hub) run() {
	defer close(h.stopped)
	clients := map[*sseClient]bool{}
	var active *event // the error browsers must see, nil when all is well
	for {
		select {
		case c := <-h.register:
			clients[c] = true
			if active != nil {
				c.send <- *active // fresh buffer, cannot block
			}
		case c := <-h.unregister:
			delete(clients, c)
		case e := <-h.broadcast:
			switch e.name {
			case "error":
				active = &e
			case "ok":
				active = nil
			}
			for c := range clients {
				select {
				case c.send <- e:
				default: // stuck: drop it; the browser reconnects
					delete(clients, c)
					close(c.send)
				}
			}
		case <-h.done:
			for c := range clients {
				close(c.send)
			}
			return
		}
	}
}

// ServeHTTP streams events to one browser until the request's context ends
// or the hub closes. Only GET is allowed.
func (h *Hub) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodGet {
		w.Header().Set("Allow", http.MethodGet)
		http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
		return
	}
	flusher, ok := w.(http.Flusher)
	if !ok {
		http.Error(w, "streaming unsupported", http.StatusInternalServerError)
		return
	}
	c := &sseClient{send: make(chan event, clientBuffer)}
	// Register before the first byte: once a browser (or a test) has read
	// the preamble, no broadcast can miss it.
	select {
	case h.register <- c:
	case <-h.done:
		http.Error(w, "live reload stopped", http.StatusServiceUnavailable)
		return
	case <-r.Context().Done():
		return
	}
	defer func() {
		select {
		case h.unregister <- c:
		case <-h.stopped:
		}
	}()

	// The stream outlives the server's write timeout by design; without
	// this the browser would reconnect, and so reload, every timeout.
	http.NewResponseController(w).SetWriteDeadline(time.Time{})

	hdr := w.Header()
	hdr.Set("Content-Type", "text/event-stream")
	hdr.Set("Cache-Control", "no-cache")
	hdr.Set("X-Accel-Buffering", "no") // nginx: do not buffer the stream
	w.WriteHeader(http.StatusOK)
	fmt.Fprint(w, "retry: 500\n\n") // reconnect fast after a dev server restart
	flusher.Flush()

	tick := time.NewTicker(Heartbeat)
	defer tick.Stop()
	for {
		select {
		case e, ok := <-c.send:
			if !ok {
				return
			}
			if _, err := fmt.Fprintf(w, "event: %s\ndata: %s\n\n", e.name, e.data); err != nil {
				return
			}
		case <-tick.C:
			if _, err := fmt.Fprint(w, ": ping\n\n"); err != nil {
				return
			}
		case <-r.Context().Done():
			return
		}
		flusher.Flush()
	}
}
