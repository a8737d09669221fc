// Package streams is the WHATWG Streams Standard for bext isolates,
// written natively in Go on web/webidl: ReadableStream (default and byte
// streams, with default and BYOB readers, ReadableStreamBYOBRequest,
// tee — byte streams too —, pipeTo, pipeThrough, values() and async
// iteration, ReadableStream.from), ReadableStreamDefaultController and
// ReadableByteStreamController, WritableStream with its writer and
// controller (signal, error), TransformStream with its controller (flush
// and cancel per the current text), ByteLengthQueuingStrategy and
// CountQueuingStrategy; TextEncoderStream and TextDecoderStream (WHATWG
// Encoding); CompressionStream and DecompressionStream (WHATWG
// Compression: "gzip", "deflate", "deflate-raw" with compress/gzip,
// compress/zlib, compress/flate).
//
// The abstract operations follow the standard's text step by step, with
// the spec's names in the comments. Promises are goja promises reacted to
// through the realm's original Promise.resolve and Promise.prototype.then
// (captured at install), so an app patching them changes nothing. Two
// goja facts shape the code:
//
//   - goja runs promise jobs whenever a call from Go into JS returns with
//     no JS frame beneath it — as in a native promise reaction or a Go I/O
//     completion. Spec steps that call into JS from there would run later
//     jobs before earlier ones, so every reaction is a JS closure around
//     the Go steps (state.fn), and Go API entry points run inside one JS
//     frame (state.enter).
//   - "queue a microtask" queues one reaction job on a fulfilled promise;
//     each job runs the oldest waiting Go function (state.microtask).
//     Results only Go observes (a Go Reader's reads, a Go Source's pulls)
//     share one job per batch (state.goTask).
//
// Byte streams transfer ArrayBuffers as the standard says: the new buffer
// takes over the old one's memory (no copy) and the old one is detached.
//
// # Go API
//
// Source, Controller and NewReadable make a byte stream fed from Go (a
// fetch body); FromBytes makes one holding a byte slice; IsReadable,
// Locked and Disturbed answer for Response.bodyUsed and friends; Reader,
// ReadAll and Tee read JS streams from Go (fetch's body mixin, the
// engine's streamed Response).
//
// # Known deviations
//
//   - goja has no Symbol.asyncIterator; the async iterator is keyed by
//     Symbol.asyncIterator when the host defines it, else by
//     Symbol.for("Symbol.asyncIterator"), which is what esbuild's lowered
//     for-await looks up. goja has no %AsyncIteratorPrototype% either: a
//     stand-in object with [Symbol.asyncIterator]() { return this } is the
//     iterator prototype's prototype.
//   - pipeTo's signal is read through its JS surface (aborted, reason,
//     addEventListener); the abort algorithm runs as an "abort" listener,
//     not as one of the signal's internal abort algorithms, so it runs
//     after listeners added earlier. WritableStreamDefaultController.signal
//     is made on first access from the global AbortController (web/events).
//   - TextDecoderStream decodes UTF-8 only (its labels); it moves to the
//     encoding package's streaming decoder when that lands.
//   - DecompressionStream runs Go's decompressor on a goroutine of its own,
//     handed each chunk in turn (the JS goroutine waits while it works);
//     the goroutine ends with the stream, its cancellation, or the render.
//   - The pipe loop's microtask counts approximate the reference
//     implementation's; chunk order, backpressure and shutdown follow the
//     standard.
//
// Conformance: testdata/conformance holds bext's own cases written from the
// standards (the web-platform-tests files cannot be had at test time); they
// run in a bext isolate and in Node 20, expectations.json lists the known
// failures.
package streams
