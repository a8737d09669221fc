package fetch

import (
	"context"
	"errors"
	"fmt"
	"net"
	"strings"
	"syscall"

	"github.com/dop251/goja"
)

// Network errors are TypeErrors, as the Fetch Standard says. Node's say
// only "fetch failed" and put the reason in a cause; bext's name the
// reason and the URL in the message too, and keep a Node-like cause
// (an Error with a message and a code such as ECONNREFUSED).

// describe returns a Node-like message and code for a Go network error.
func describe(err error) (msg, code string) {
	var te *timeoutError
	if errors.As(err, &te) {
		return te.Error(), "UND_ERR_TIMEOUT"
	}
	var dns *net.DNSError
	if errors.As(err, &dns) {
		if dns.IsNotFound {
			return "getaddrinfo ENOTFOUND " + dns.Name, "ENOTFOUND"
		}
		if dns.IsTimeout {
			return "getaddrinfo EAI_AGAIN " + dns.Name, "EAI_AGAIN"
		}
		return "getaddrinfo " + dns.Err + " " + dns.Name, "EAI_FAIL"
	}
	var op *net.OpError
	if errors.As(err, &op) {
		addr := ""
		if op.Addr != nil {
			addr = op.Addr.String()
		}
		sys := op.Op
		if sys == "dial" {
			sys = "connect"
		}
		switch {
		case errors.Is(err, syscall.ECONNREFUSED):
			return "connect ECONNREFUSED " + addr, "ECONNREFUSED"
		case errors.Is(err, syscall.ECONNRESET):
			return sys + " ECONNRESET", "ECONNRESET"
		case errors.Is(err, syscall.EHOSTUNREACH):
			return "connect EHOSTUNREACH " + addr, "EHOSTUNREACH"
		case errors.Is(err, syscall.ENETUNREACH):
			return "connect ENETUNREACH " + addr, "ENETUNREACH"
		case op.Timeout() && op.Op == "dial":
			return "Connect Timeout Error (attempted address: " + addr + ")", "UND_ERR_CONNECT_TIMEOUT"
		}
	}
	if errors.Is(err, context.Canceled) {
		return "the request was cancelled", "ABORT_ERR"
	}
	if errors.Is(err, context.DeadlineExceeded) {
		return "the render's deadline passed", "UND_ERR_TIMEOUT"
	}
	var ne net.Error
	if errors.As(err, &ne) && ne.Timeout() {
		return err.Error(), "ETIMEDOUT"
	}
	if strings.Contains(err.Error(), "tls:") || strings.Contains(err.Error(), "x509:") {
		return err.Error(), "ERR_TLS"
	}
	if errors.Is(err, errTooLarge) {
		return err.Error(), "UND_ERR_RES_EXCEEDED_MAX_SIZE"
	}
	return err.Error(), ""
}

// failure makes TypeError(prefix + ": " + reason + " (" + href + ")") with a cause.
func (s *state) failure(prefix string, err error, href string) *goja.Object {
	msg, code := describe(err)
	cause := s.r.NewError("Error", msg)
	if code != "" {
		_ = cause.Set("code", code)
	}
	text := prefix + ": " + msg
	if href != "" {
		text += " (" + href + ")"
	}
	e := s.rt.NewTypeError(text)
	_ = e.Set("cause", cause)
	return e
}

// networkError is the TypeError a fetch rejects with when no response came.
func (s *state) networkError(err error, href string) *goja.Object {
	return s.failure("fetch failed", err, href)
}

// bodyError is the TypeError a response body fails with mid-way
// (undici says "terminated").
func (s *state) bodyError(err error, href string) *goja.Object {
	return s.failure("terminated", err, href)
}

// limitError is the TypeError of a response body over MaxResponseBytes.
func (s *state) limitError(href string) *goja.Object {
	return s.failure("fetch failed", fmt.Errorf("the response body is larger than the limit of %d bytes (fetch max response bytes)", s.opts.MaxResponseBytes), href)
}
