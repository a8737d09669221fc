// Package webidl is the shared ground of bext's Web platform: the Host an
// isolate provides (its runtime, asynchronous completions, the render's
// context), the per-runtime Realm, and the WebIDL machinery every spec
// package uses — interface objects and prototypes (Class), internal slots
// (SetSlot, Slot, This), argument conversions (String, ByteString,
// Integer, Dict, Iterate, Bytes), iterators, promises, and DOMException,
// which WebIDL itself defines.
//
// It knows nothing of any particular spec, of the pool or of HTTP.
package webidl
