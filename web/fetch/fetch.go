// Package fetch is a placeholder for the Web platform spec it names; its
// Install is filled in by the spec's implementation.
package fetch

import "bext/web/webidl"

// Globals are the global names Install defines.
var Globals = []string{} // to come: "Headers", "Request", "Response", "fetch", "FormData", "Blob", "File"

// Install defines Globals in r.
func Install(r *webidl.Realm) {}

// Options configure fetch ([fetch] in config.toml).
type Options struct{}

// Configure records o as r's fetch options; call it before Install.
func Configure(r *webidl.Realm, o Options) {}
