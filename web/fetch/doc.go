// Package fetch is the WHATWG Fetch Standard for bext isolates, written
// natively in Go on web/webidl: Headers, Request, Response, the Body
// mixin, fetch(), and the File API's Blob and File and XMLHttpRequest's
// FormData, which Fetch bodies are made of.
//
// # What is native, and the hot paths
//
// Everything: header lists, MIME types, body extraction and packaging,
// multipart/form-data (encoding; parsing with mime/multipart) and
// application/x-www-form-urlencoded, UTF-8 decoding, data: URLs, and the
// HTTP exchange (net/http). Bodies stay Go bytes until JS asks for .body:
// new Response(html).text() hands back the very string it was given, and
// (await fetch(u)).json() reads the network body on a goroutine and parses
// it once, never building a JS stream. A body becomes a ReadableStream
// (web/streams) only when someone reads .body; a network body then streams
// chunk by chunk as it arrives. Response and Request headers are a Go list
// until .headers is read.
//
// # fetch
//
// fetch goes out through a net/http Transport shared by every isolate
// (keep-alive outlives a render). Each fetch runs under the render's
// context (webidl.Host.Context): when the render settles, times out or
// its client goes away, the Go request is cancelled. The request's
// AbortSignal cancels it too; the promise rejects with the signal's
// reason, or — once the response arrived — the body errors with it.
// Options (config [fetch]) bound the time (Timeout, ConnectTimeout), the
// size of a response body (MaxResponseBytes: counted on the decoded bytes,
// so a gzip bomb stops at the limit; a Content-Length over it rejects the
// fetch at once), and redirects (MaxRedirects), set the base URL relative
// URLs resolve against (BaseURL: fetch("/api/x") reaches the app's own
// server; without it a relative URL is a TypeError, as in Node) and the
// User-Agent.
//
// Headers on the wire: the app's, plus what undici (Node's fetch) adds
// when the app sets none — Accept: */*, Accept-Language: *,
// Sec-Fetch-Mode: <request mode>, Accept-Encoding: gzip, deflate — and
// User-Agent: bext (Options.UserAgent) where Node says "node". Bodies set
// Content-Type from their type and Content-Length (a stream goes chunked).
// No cookie jar, no credentials of fetch's own; Authorization, Cookie and
// Proxy-Authorization are dropped on a redirect to another origin.
//
// Responses in gzip, x-gzip or deflate (zlib or raw) are decoded whoever
// asked for them, as undici does; Content-Encoding and Content-Length stay
// in the headers as Node leaves them. Brotli is neither asked for nor
// decoded (Node asks for br only over https): a br body the app asked for
// itself arrives as it came.
//
// Redirects follow the standard: at most 20 (MaxRedirects); 301/302 turn
// a POST into a GET, 303 anything but HEAD, dropping the body and its
// headers; a streamed request body cannot be sent twice, so a 307/308
// after one is a network error; redirect: "error" rejects; redirect:
// "manual" returns the redirect response itself (status, Location, body),
// as undici does, not the browser's opaque filtered response. Responses
// from fetch have type "basic"; their headers are immutable.
//
// Network errors are TypeErrors whose message names the reason and the
// URL — "fetch failed: connect ECONNREFUSED 127.0.0.1:8080
// (http://127.0.0.1:8080/x)" — with a Node-like cause (an Error with the
// reason as message and a code: ECONNREFUSED, ENOTFOUND,
// UND_ERR_CONNECT_TIMEOUT, UND_ERR_TIMEOUT …). A body that fails midway
// rejects with "terminated: …". The standard's blocked ports (1, 7, 9, …,
// 6000, 6665–6669, 10080) are refused ("bad port"), as in Node.
//
// AbortSignal comes from web/events (Request.signal is a signal of the
// request's own that follows init.signal, made on first access) and URLs
// are parsed by web/url.
//
// # Go API
//
// The engine's fetch-handler contract: NewRequest makes the Request a
// fetch(request, env, ctx) handler receives (ReaderSource keeps an
// incoming body in Go until JS asks for request.body), and ResponseOf
// reads the Response it returns — status, headers, and the body as bytes
// when known in Go or as a ReadableStream to read with streams.NewReader.
// Configure sets a realm's Options before Install; Options.Validate
// tells the config layer which values to refuse at start-up. Blob and File
// register with web/clone, so structuredClone copies them.
//
// # Known deviations
//
//   - No forbidden header names or request-no-cors guard: like undici,
//     only the "immutable" guard is enforced (a server has nothing to
//     protect).
//   - Request's cache, credentials, mode, referrer, referrerPolicy,
//     integrity, keepalive and priority are validated and reflected, and
//     nothing acts on them (no HTTP cache, no CORS, no cookies, no
//     Referer header). Sec-Fetch-Mode carries the mode, as in Node.
//   - extract a MIME type is simplified to the last valid type of the
//     combined Content-Type value (charset carried over as the standard
//     says only for equal essences).
//   - Calling Headers(), Request(), Response(), Blob(), File() or
//     FormData() without new from strict-mode code constructs instead of
//     throwing: goja cannot tell such a call from new (web/webidl).
//
// Conformance: testdata/conformance holds bext's own cases written from the
// standards (the web-platform-tests files cannot be had at test time);
// they run in a bext isolate and in Node 20 against a loopback server, and
// expectations.json lists the known failures.
package fetch
