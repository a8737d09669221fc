// Package node gives a bext isolate the Node built-ins that server builds
// of popular libraries import, and the Node globals they expect (Buffer,
// process), written for bext from Node's documentation.
//
// # How a bundle gets them
//
// The server build (engine.BuildServer) resolves "events",
// "node:buffer", "stream/promises" … to a one-line module,
// `module.exports = __bext_node("events")`; RequireGlobal is the host
// function behind it. The first require of a module in a runtime runs its
// source (a *goja.Program compiled once per process and shared by every
// isolate) with its native half; later requires return the same exports.
// Nothing is built before a bundle asks: Install defines RequireGlobal and
// two lazy globals, Buffer and process (the isolate's process object —
// env, argv — completed on first access), so booting an isolate costs
// three property definitions. Node's parity runner defines the same global
// as Node's require, so one bundle runs on both.
//
// A built-in bext does not provide (fs, http, net, child_process, zlib,
// os, tty, worker_threads, vm …) is a build error naming the module and
// the importing file:line:col, unless the importing package maps it away
// in its "browser" field.
//
// # What is native
//
// Go: Buffer's string codecs (UTF-8 with WHATWG replacement, UTF-16LE,
// latin1, ascii, hex, base64/base64url as Node decodes them) and byte
// loops (compare, indexOf, fill); crypto's random values, hashes (md5,
// sha1, sha2, sha3), HMAC, PBKDF2, HKDF and timingSafeEqual; the async
// context behind AsyncLocalStorage and the process.nextTick queue; what
// util.inspect cannot see from JS (a promise's state, a proxy's target).
// JS (js/*.js): events, stream, util (format, inspect, promisify …),
// path (POSIX), url, querystring, string_decoder, assert, async_hooks,
// diagnostics_channel, timers(/promises), perf_hooks, the rest of Buffer.
//
// # Async context and nextTick
//
// goja runs promise jobs itself; its AsyncContextTracker hook (Grab,
// Resumed, Exited around each reaction job) is installed the first time a
// bundle uses nextTick or AsyncLocalStorage. A store survives awaits, then
// callbacks, nextTick and timers; a context belongs to the render it was
// made in (a store left by enterWith never reaches the next render).
// nextTick callbacks queued by synchronous code run before any promise job
// already queued, as in Node.
//
// # Known deviations
//
//   - A nextTick queued inside a promise job runs after the jobs queued
//     before it rather than after the whole microtask queue (goja has no
//     hook at the end of its job queue).
//   - assert's messages quote values, not the caller's source text, and
//     carry no diff of objects.
//   - async_hooks.createHook returns a hook that is never called;
//     executionAsyncId is always 1.
//   - path.win32 is path.posix; process.exit, chdir, kill throw;
//     process.stdout/stderr write to the console.
//   - crypto: ciphers, signatures, key objects, scrypt and DH are not
//     provided (they throw naming crypto.subtle); crypto.webcrypto is the
//     isolate's Web Crypto global, or random values only while it has none.
//   - stream: the classic API (Readable, Writable, Duplex, Transform,
//     PassThrough, pipeline, finished, promises, from, toWeb/fromWeb,
//     async iteration); Readable's operator helpers beyond toArray and
//     forEach (map, filter …) and compose are not provided.
//
// The parity suite (parity_test.go) runs 274 cases in bext and in Node 20
// on the same bundle and compares them one by one.
package node
