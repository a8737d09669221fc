package app

import (
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"os"
	"strings"

	"bext/config"
)

// listener is one http.Server on a bound socket.
type listener struct {
	ln net.Listener
	hs *http.Server
}

func (in *Instance) listen(cfg *config.Config) error {
	main, err := in.newListener(cfg, cfg.Server.Addr, in.handler(false))
	if err != nil {
		return err
	}
	in.addr = main.ln.Addr().String()
	if cfg.Admin.Addr != "" {
		admin, err := in.newListener(cfg, cfg.Admin.Addr, in.handler(true))
		if err != nil {
			return err
		}
		in.adminAddr = admin.ln.Addr().String()
		if admin.ln.Addr().Network() == "unix" {
			in.adminAddr = "unix:" + in.adminAddr
		}
	}
	return nil
}

// newListener binds addr and makes its server, with the timeouts that keep
// slow clients from pinning connections.
func (in *Instance) newListener(cfg *config.Config, addr string, h http.Handler) (*listener, error) {
	ln, err := listenOn(addr)
	if err != nil {
		return nil, err
	}
	l := &listener{ln: ln, hs: HTTPServer(cfg, h, in.log)}
	in.listeners = append(in.listeners, l)
	return l, nil
}

// listenOn binds host:port, or a unix socket for "unix:PATH" (a stale
// socket file is replaced; the new one is private to this user).
func listenOn(addr string) (net.Listener, error) {
	if path, ok := strings.CutPrefix(addr, "unix:"); ok {
		if fi, err := os.Lstat(path); err == nil && fi.Mode()&os.ModeSocket != 0 {
			if c, err := net.Dial("unix", path); err == nil {
				c.Close()
				return nil, fmt.Errorf("listen on %s: another server answers on that socket", addr)
			}
			os.Remove(path)
		}
		ln, err := net.Listen("unix", path)
		if err != nil {
			return nil, fmt.Errorf("listen on %s: %w", addr, err)
		}
		if err := os.Chmod(path, 0o600); err != nil {
			ln.Close()
			return nil, fmt.Errorf("listen on %s: %w", addr, err)
		}
		return ln, nil
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		hint := "is another server running? pick another address"
		var ae *net.AddrError
		if errors.As(err, &ae) || strings.Contains(err.Error(), "no such host") {
			hint = "check the address"
		}
		return nil, fmt.Errorf("listen on %s: %w (%s)", addr, err, hint)
	}
	return ln, nil
}

// HTTPServer is the http.Server bext serves h with: [server] timeouts and
// header limit, errors logged at warn.
func HTTPServer(cfg *config.Config, h http.Handler, log *slog.Logger) *http.Server {
	s := cfg.Server
	return &http.Server{
		Handler:           h,
		ReadHeaderTimeout: ms(s.ReadHeaderTimeoutMS),
		ReadTimeout:       ms(s.ReadTimeoutMS),
		WriteTimeout:      ms(s.WriteTimeoutMS),
		IdleTimeout:       ms(s.IdleTimeoutMS),
		MaxHeaderBytes:    s.MaxHeaderBytes,
		ErrorLog:          slog.NewLogLogger(log.Handler(), slog.LevelWarn),
	}
}
