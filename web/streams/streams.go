// Package streams is a placeholder for the Web platform spec it names; its
// Install is filled in by the spec's implementation.
package streams

import "bext/web/webidl"

// Globals are the global names Install defines.
var Globals = []string{} // to come: "ReadableStream", "ReadableStreamDefaultReader", "ReadableStreamBYOBReader", "ReadableStreamDefaultController", "ReadableByteStreamController", "ReadableStreamBYOBRequest", "WritableStream", "WritableStreamDefaultWriter", "WritableStreamDefaultController", "TransformStream", "TransformStreamDefaultController", "ByteLengthQueuingStrategy", "CountQueuingStrategy", "TextEncoderStream", "TextDecoderStream", "CompressionStream", "DecompressionStream"

// Install defines Globals in r.
func Install(r *webidl.Realm) {}
