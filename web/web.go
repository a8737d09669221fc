// Package web installs the Web platform of ECMA-429 (the WinterTC Minimum
// Common Web API) into an isolate's runtime: URL, events and abort,
// encoding and base64, streams, Headers/Request/Response/fetch, Blob and
// FormData, crypto, structuredClone, navigator. Each spec is a package of
// its own under web/, written natively in Go on the shared machinery of
// web/webidl (Deno's ext/ layout).
//
// Installation is lazy: Install only defines each global as an accessor;
// the first access to any name of a spec installs that whole spec (and the
// specs it builds on). An isolate whose app never touches fetch pays
// nothing for it, so booting stays as fast as without the platform.
package web

import (
	"bext/web/clone"
	"bext/web/crypto"
	"bext/web/encoding"
	"bext/web/events"
	"bext/web/fetch"
	"bext/web/streams"
	"bext/web/url"
	"bext/web/webidl"

	"github.com/dop251/goja"
)

// Options configure the platform of one isolate.
type Options struct {
	// UserAgent is navigator.userAgent ("bext/<version>").
	UserAgent string
	// Fetch configures fetch.
	Fetch fetch.Options
}

// specs lists every spec package and the globals it defines.
var specs = []struct {
	globals []string
	install func(*webidl.Realm)
}{
	{events.Globals, events.Install},
	{url.Globals, url.Install},
	{encoding.Globals, encoding.Install},
	{streams.Globals, streams.Install},
	{fetch.Globals, fetch.Install},
	{crypto.Globals, crypto.Install},
	{clone.Globals, clone.Install},
}

// Install makes the Web platform available in h's runtime and returns its
// realm. It defines accessors only; see the package comment.
func Install(h webidl.Host, o Options) *webidl.Realm {
	r := webidl.NewRealm(h)
	fetch.Configure(r, o.Fetch)
	for _, s := range specs {
		install := s.install
		for _, name := range s.globals {
			r.Lazy(name, func() { install(r) })
		}
	}
	r.Lazy("DOMException", func() { r.DOMExceptionClass() })
	r.Lazy("navigator", func() { installNavigator(r, o.UserAgent) })
	return r
}

func installNavigator(r *webidl.Realm, ua string) {
	c := r.NewClass("Navigator", 0, nil, nil)
	c.Getter("userAgent", func(goja.Value) goja.Value { return r.RT.ToValue(ua) })
	r.Global("Navigator", c.Ctor)
	r.Global("navigator", c.New(nil))
}
