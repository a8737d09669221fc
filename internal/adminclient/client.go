// Package adminclient talks to a running bext's admin API, the way `caddy
// reload` talks to Caddy's: the CLI commands ps, workers restart and
// workers stats are thin layers over it.
package adminclient

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"bext/cache"
	"bext/config"
	"bext/internal/app"
	"bext/pool"
)

// Client calls one server's admin API.
type Client struct {
	base  string // URL prefix of the requests
	shown string // the address as a person wrote it
	token string
	http  *http.Client
}

// New finds the server's admin API: addr when given, else the admin
// listener — BEXT_ADMIN_ADDR, else the config's [admin] addr (the file
// config.Find picks for cfgFlag, or the defaults) — or, when the config
// puts admin on the public listener ([admin] addr = ""), BEXT_ADDR, else
// [server] addr. "unix:PATH" reaches a unix socket. The token is
// BEXT_ADMIN_TOKEN, else the config's.
func New(addr, cfgFlag string, getenv func(string) string) (*Client, error) {
	c := &Client{token: getenv("BEXT_ADMIN_TOKEN"), http: &http.Client{Timeout: 10 * time.Second}}
	cfg := config.Default()
	if path := config.Find(cfgFlag); path != "" {
		loaded, err := config.Load(path)
		if err != nil {
			return nil, err
		}
		cfg = *loaded
	}
	for _, a := range []string{addr, getenv("BEXT_ADMIN_ADDR"), cfg.Admin.Addr, getenv("BEXT_ADDR"), cfg.Server.Addr} {
		if a != "" {
			addr = a
			break
		}
	}
	if c.token == "" {
		c.token = cfg.Admin.Token
	}
	if path, ok := strings.CutPrefix(addr, "unix:"); ok {
		c.http.Transport = &http.Transport{DialContext: func(ctx context.Context, _, _ string) (net.Conn, error) {
			var d net.Dialer
			return d.DialContext(ctx, "unix", path)
		}}
		c.base, c.shown = "http://unix", addr
		return c, nil
	}
	if !strings.Contains(addr, "://") {
		addr = "http://" + addr
	}
	c.base = strings.TrimRight(addr, "/")
	c.shown = c.base
	return c, nil
}

// Do sends one request and decodes a JSON answer into v. A server that is
// not there is one line saying so; an error status carries the API's
// error message.
func (c *Client) Do(method, path string, v any) error {
	req, err := http.NewRequest(method, c.base+path, nil)
	if err != nil {
		return err
	}
	if c.token != "" {
		req.Header.Set("Authorization", "Bearer "+c.token)
	}
	resp, err := c.http.Do(req)
	if err != nil {
		var ne net.Error
		if errors.As(err, &ne) || strings.Contains(err.Error(), "connection refused") {
			return fmt.Errorf("no bext server answering at %s (start one with `bext serve`, or pass -addr with its admin address)", c.shown)
		}
		return err
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	if resp.StatusCode >= 300 {
		var e struct{ Error string }
		json.Unmarshal(body, &e)
		if e.Error == "" {
			e.Error = strings.TrimSpace(string(body))
		}
		return &StatusError{Method: method, Path: path, Status: resp.Status, Msg: e.Error, Code: resp.StatusCode}
	}
	return json.Unmarshal(body, v)
}

// Workers is GET /__bext/workers (of app name, with many apps).
func (c *Client) Workers(name string) ([]pool.WorkerStats, error) {
	var ws []pool.WorkerStats
	return ws, c.Do(http.MethodGet, withApp("/__bext/workers", name), &ws)
}

// Restart is POST /__bext/workers/restart for one slot (id >= 0) or all,
// of app name with many apps (an app that is not running is started, and
// revived when it gave up); it returns the slots the server scheduled.
func (c *Client) Restart(id int, name string) ([]int, error) {
	path := "/__bext/workers/restart"
	if id >= 0 {
		path += "?worker=" + strconv.Itoa(id)
	}
	var r struct {
		Scheduled []int `json:"scheduled"`
	}
	return r.Scheduled, c.Do(http.MethodPost, withApp(path, name), &r)
}

// Apps is GET /__bext/apps: nil (and no error) from a server with a single
// [app].
func (c *Client) Apps() ([]app.AppStats, error) {
	var as []app.AppStats
	err := c.Do(http.MethodGet, "/__bext/apps", &as)
	var se *StatusError
	if errors.As(err, &se) && se.Code == http.StatusNotFound {
		return nil, nil
	}
	return as, err
}

func withApp(path, name string) string {
	if name == "" {
		return path
	}
	sep := "?"
	if strings.Contains(path, "?") {
		sep = "&"
	}
	return path + sep + "app=" + url.QueryEscape(name)
}

// CacheStats is GET /__bext/cache/stats (of app name, with many apps): nil
// (and no error) when the server has no page cache or the app is not
// running.
func (c *Client) CacheStats(name string) (*cache.Stats, error) {
	var st cache.Stats
	err := c.Do(http.MethodGet, withApp("/__bext/cache/stats", name), &st)
	var se *StatusError
	if errors.As(err, &se) && se.Code == http.StatusNotFound {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	return &st, nil
}

// PurgeCache is POST /__bext/cache/purge with one selector (of app name,
// with many apps); it returns how many responses went.
func (c *Client) PurgeCache(sel cache.Selector, name string) (int, error) {
	q := url.Values{}
	switch {
	case sel.Path != "":
		q.Set("path", sel.Path)
	case sel.Prefix != "":
		q.Set("prefix", sel.Prefix)
	case sel.Tag != "":
		q.Set("tag", sel.Tag)
	case sel.All:
		q.Set("all", "true")
	}
	var r struct {
		Purged int `json:"purged"`
	}
	return r.Purged, c.Do(http.MethodPost, withApp("/__bext/cache/purge?"+q.Encode(), name), &r)
}

// StatusError is an error status from the admin API.
type StatusError struct {
	Method, Path, Status, Msg string
	Code                      int
}

func (e *StatusError) Error() string {
	return fmt.Sprintf("%s %s: %s: %s", e.Method, e.Path, e.Status, e.Msg)
}
