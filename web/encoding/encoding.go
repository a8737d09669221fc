// Package encoding is a placeholder for the Web platform spec it names; its
// Install is filled in by the spec's implementation.
package encoding

import "bext/web/webidl"

// Globals are the global names Install defines.
var Globals = []string{} // to come: "TextEncoder", "TextDecoder", "atob", "btoa"

// Install defines Globals in r.
func Install(r *webidl.Realm) {}
