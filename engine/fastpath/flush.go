package fastpath

import (
	"fmt"
	"regexp"
)

// The flush rewrite: when renderToString has rendered a segment (the whole
// page when nothing suspends), React's flushSegment hands its chunks to the
// destination one push per chunk — thousands of JS calls for a medium page.
// The rewrite hands over the chunks after the segment's last child
// boundary joined into one string (Array.prototype.join runs in Go). The
// destination receives the same text in fewer, larger pieces: identical
// for renderToString's sink, and for React 18's renderToNodeStream the same
// bytes in larger stream chunks, with the push's backpressure result still
// returned.

//
// The streaming renderers (renderToReadableStream, renderToPipeableStream)
// write each chunk with writeChunk, which copies it into a 512-byte (React
// 18) or 4 KB (React 19) Uint8Array view through typed-array set and
// subarray calls: on goja half of a streamed render. There the rewrite
// hands writeChunk the segment's chunks concatenated into one Uint8Array by
// __bext_fast.concatChunks (Go; strings encoded to UTF-8 as TextEncoder
// does), which writeChunk passes on whole. The stream carries the same
// bytes in fewer, larger chunks. Where the helper is absent (Node), or a
// chunk is neither a string nor a Uint8Array, the loop runs as before.

func init() {
	register(
		rewrite{name: Flush, pkg: "react-dom", files: reactProdLegacy, majors: []string{"18", "19"}, apply: rewriteFlush},
		rewrite{name: Flush, pkg: "react-dom", files: reactProdStreaming, majors: []string{"18", "19"}, apply: rewriteStreamFlush},
		rewrite{name: Flush, pkg: "react-dom", files: reactProdNode, majors: []string{"19"}, leave: []string{"18"}, apply: rewriteStreamFlush},
	)
}

// reactProdStreaming selects the production streaming builds for Web
// streams (renderToReadableStream), which copy byte chunks into their view.
// Bun's writes chunks straight through and has nothing to gain.
var reactProdStreaming = regexp.MustCompile(`^cjs/react-dom-server\.(?:browser|edge)\.production(?:\.min)?\.js$`)

// reactProdNode selects the Node streaming build (renderToPipeableStream).
// Only React 19's is rewritten: React 18's encodes string chunks into its
// view with encodeInto and, when a character does not fit at the view's
// end, sends the unused bytes of the view as NULs (a React 18 bug that
// Node shows as well). Where the NULs land depends on how the text is cut
// into chunks, so joining the chunks would change the bytes sent.
var reactProdNode = regexp.MustCompile(`^cjs/react-dom-server\.node\.production(?:\.min)?\.js$`)

// streamFlushTail is flushSegment's (flushSubtree's) tail in the streaming
// builds: writeChunk per chunk, writeChunkAndReturn for the last.
var streamFlushTail = newShape(`for(;@E<@D.length-1;@E++)@W(@B,@D[@E]);@E<@D.length&&(@R=@T(@B,@D[@E]))@{END}~return @R`)

// writeChunkAndReturn must be writeChunk plus a return.
var writeAndReturn = newShape(`function @T(@P,@Q){@W(@P,@Q)~return`)

func rewriteStreamFlush(src string) (string, error) {
	m, err := streamFlushTail.findOne(src, flushAnchor, "flushSegment's chunk loop")
	if err != nil {
		return "", err
	}
	id := m.idents
	ok := false
	for _, w := range writeAndReturn.findAll(src, functionAnchor) {
		ok = ok || w.idents["T"] == id["T"] && w.idents["W"] == id["W"]
	}
	if !ok {
		return "", fmt.Errorf("%w: %s is not `function %s(d, c) { %s(d, c); return … }`", ErrUnrecognised, id["T"], id["T"], id["W"])
	}
	e, d, b, r, t := id["E"], id["D"], id["B"], id["R"], id["T"]
	loop := src[m.start:m.marks["END"]]
	return applyEdits(src, []edit{
		moduleDecl(src, nativeDecl("__bext_concatChunks", "concatChunks")),
		{m.start, m.marks["END"], fmt.Sprintf(`var __bext_joined = null === __bext_concatChunks ? null : __bext_concatChunks(%s, %s);
if (null !== __bext_joined) %s < %s.length && (%s = %s(%s, __bext_joined));
else { %s; }`, d, e, e, d, r, t, b, loop)},
	}), nil
}

// reactProdLegacy selects react-dom's production legacy server builds
// (renderToString, renderToStaticMarkup), whose destination is a sink with
// push(chunk).
var reactProdLegacy = regexp.MustCompile(`^cjs/react-dom-server-legacy\.(?:browser|node)\.production(?:\.min)?\.js$`)

// flushTail is the end of flushSegment (React 18) / flushSubtree (React 19):
// every chunk after the last child segment, one push each, the last push's
// result returned.
var flushTail = newShape(`for(;@E<@D.length-1;@E++)@B.push(@D[@E]);@E<@D.length&&(@R=@B.push(@D[@E]))@{END}~return @R`)

var flushAnchor = regexp.MustCompile(`\bfor\s*\(\s*;`)

func rewriteFlush(src string) (string, error) {
	m, err := flushTail.findOne(src, flushAnchor, "flushSegment's chunk loop")
	if err != nil {
		return "", err
	}
	e, d, b, r := m.idents["E"], m.idents["D"], m.idents["B"], m.idents["R"]
	return applyEdits(src, []edit{{m.start, m.marks["END"],
		e + " < " + d + ".length && (" + r + " = " + b + ".push(0 === " + e + " ? " + d + `.join("") : ` + d + ".slice(" + e + `).join("")))`,
	}}), nil
}
