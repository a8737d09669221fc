// Package clone is the HTML standard's structuredClone, natively in Go:
// StructuredSerializeWithTransfer and StructuredDeserializeWithTransfer
// into the same realm, done in one walk with a memory of the objects
// already cloned (shared and circular references survive).
//
// What it owns: the global structuredClone, Clone (the same from Go), and
// RegisterSerializable, the hook through which other spec packages make
// their platform objects cloneable (fetch's Blob and File) without clone
// importing them.
//
// What is cloned: primitives (BigInt included); Boolean, Number, BigInt and
// String wrappers; Date; RegExp (source and flags, lastIndex reset);
// ArrayBuffer (copied, or moved and the original detached when listed in
// transfer); typed arrays and DataView (over the clone of their buffer);
// Map and Set (entries listed first, then cloned); Arrays (length, holes
// and non-index properties); plain and class-instance objects (own
// enumerable string keys; the prototype becomes Object.prototype); Errors
// (name if standard, else "Error"; own message; and, as V8 does, own
// stack and cause); DOMException (name and message). A DataCloneError
// DOMException is thrown for functions, symbols, WeakMap/WeakSet,
// Promise, Proxy, arguments objects, Go-backed objects and platform
// objects no serializer claims (EventTarget, AbortSignal, Event …).
//
// goja shows no internal slots to Go, so an object's kind is told by the
// Go type goja implements it with (read by reflection, cached per type);
// a goja upgrade that renames those types makes such objects
// uncloneable, which the tests catch.
//
// Known deviations: a getter that deletes a later property does not stop
// that property being cloned (the standard re-checks HasOwnProperty);
// Node 20 clones EventTarget/AbortSignal as {} and DOMException as {},
// where the standard (and bext) throw, respectively clone name and message.
package clone
