package fetch

// What fetch takes from the specs it builds on: AbortSignal (web/events)
// and the URL parser (web/url).

import (
	"github.com/dop251/goja"

	"bext/web/events"
	"bext/web/url"
	"bext/web/webidl"
)

func installDeps(r *webidl.Realm) {
	events.Install(r)
	url.Install(r)
}

// parseURL is the URL parser: input against base ("" = none); it returns
// the href. Safe on any goroutine.
func parseURL(input, base string) (string, error) { return url.Parse(input, base) }

// urlOf returns the href of a URL object.
func urlOf(v goja.Value) (string, bool) { return url.Of(v) }

// signal is an AbortSignal seen from Go.
type signal = *events.Signal

func signalOf(v goja.Value) (signal, bool) { return events.SignalOf(v) }

// newController makes an AbortSignal and its abort function.
func newController(r *webidl.Realm) (signal, func(reason goja.Value)) { return events.NewController(r) }
