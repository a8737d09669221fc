// Package url is a placeholder for the Web platform spec it names; its
// Install is filled in by the spec's implementation.
package url

import "bext/web/webidl"

// Globals are the global names Install defines.
var Globals = []string{} // to come: "URL", "URLSearchParams", "URLPattern"

// Install defines Globals in r.
func Install(r *webidl.Realm) {}
