// Package examples embeds the runnable example apps that ship inside the
// bext binary. Only basic is embedded (it is the default app and needs no
// npm); the other folders are run from disk.
package examples

import "embed"

// Basic is the examples/basic folder: config.toml, src/ and public/.
//
//go:embed basic
var Basic embed.FS
