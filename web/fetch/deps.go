package fetch

// Interim stand-ins for web/events and web/url until they land: only this
// file changes when they do.

import (
	"errors"
	neturl "net/url"

	"github.com/dop251/goja"

	"bext/web/webidl"
)

func installDeps(r *webidl.Realm) {}

// parseURL is the URL parser: input against base ("" = none); it returns
// the href.
func parseURL(input, base string) (string, error) {
	u, err := neturl.Parse(input)
	if err != nil {
		return "", err
	}
	if base != "" {
		b, err := neturl.Parse(base)
		if err != nil {
			return "", err
		}
		u = b.ResolveReference(u)
	}
	if !u.IsAbs() {
		return "", errRelative
	}
	return u.String(), nil
}

// urlOf returns the href of a URL object.
func urlOf(v goja.Value) (string, bool) { return "", false }

// signal is an AbortSignal seen from Go.
type signal interface {
	Aborted() bool
	Reason() goja.Value
	OnAbort(fn func(reason goja.Value)) (remove func())
	Object() *goja.Object
}

var signalOf = func(v goja.Value) (signal, bool) { return nil, false }

// newController makes an AbortSignal and its abort function.
func newController(r *webidl.Realm) (signal, func(reason goja.Value)) { return nil, nil }

var errRelative = errors.New("relative URL without a base")
