package fastpath

import (
	"fmt"
	"regexp"
	"strings"
)

// The chunks rewrite: React's streaming renderers for Web streams
// (renderToReadableStream, react-dom/server.browser and .edge) turn every
// string they push into a segment — each text node, attribute name and
// value — into bytes at once with stringToChunk (TextEncoder.encode): on
// goja a native call and a new Uint8Array per chunk, a third of a streamed
// render. The rewrite makes stringToChunk return the string itself; the
// chunk is encoded where it is written instead: flushSegment's chunks
// together by __bext_fast.concatChunks (the flush rewrite), a chunk written
// alone by writeChunk, which now encodes a string first with the file's own
// TextEncoder. React 19 sums a finished segment's chunk sizes with
// .byteLength to decide which boundaries to outline; that loop asks
// __bext_fast.byteLength for the UTF-8 size of the chunks instead, the
// same number. The bytes sent are the same; where __bext_fast is absent
// (Node) stringToChunk encodes as before.

func init() {
	register(rewrite{name: Chunks, pkg: "react-dom", files: reactProdStreaming, majors: []string{"18", "19"}, apply: rewriteChunks})
}

// encoders are stringToChunk and stringToPrecomputedChunk, side by side and
// alike (React 18 and 19).
var encoders = newShape(`function @S(@A){return @E.encode(@A)~}function @P(@A){return @E.encode(@A)~}`)

// writeChunkStart is the start of writeChunk's body.
var writeChunkStart = newShape(`function @W(@D,@C){@{BODY}`)

// segmentBytes is React 19's finishedSegment loop summing its chunks' sizes.
var segmentBytes = newShape(`for(var @N=0,@I=0;@I<@G.length;@I++)@N+=@G[@I].byteLength@{END}`)

var byteLengthUse = regexp.MustCompile(`\.byteLength\b`)

func rewriteChunks(src string) (string, error) {
	enc, err := encoders.findOne(src, functionAnchor, "stringToChunk and stringToPrecomputedChunk")
	if err != nil {
		return "", err
	}
	e := enc.idents["E"]
	if !regexp.MustCompile(`(?:^|[^\w$.])` + regexp.QuoteMeta(e) + `\s*=\s*new\s+TextEncoder\b`).MatchString(src) {
		return "", fmt.Errorf("%w: %s is not a TextEncoder", ErrUnrecognised, e)
	}
	// writeChunk is the function writeChunkAndReturn calls, declared once.
	var w string
	for _, m := range writeAndReturn.findAll(src, functionAnchor) {
		if w != "" && w != m.idents["W"] {
			return "", fmt.Errorf("%w: two writeChunkAndReturn functions", ErrUnrecognised)
		}
		w = m.idents["W"]
	}
	var write *match
	for _, m := range writeChunkStart.findAll(src, functionAnchor) {
		if m.idents["W"] == w {
			if write != nil {
				return "", fmt.Errorf("%w: two functions %s", ErrUnrecognised, w)
			}
			write = &m
		}
	}
	if write == nil {
		return "", fmt.Errorf("%w: no writeChunk", ErrUnrecognised)
	}
	// A chunk's byte length may be read in writeChunk, which encodes a
	// string first, and in byteLengthOfChunk and the segment loop (React
	// 19) — nowhere else, or a string would give undefined there.
	body := write.marks["BODY"]
	bodyEnd := strings.Index(src[body:], "function ")
	if bodyEnd < 0 {
		return "", fmt.Errorf("%w: writeChunk is the last function", ErrUnrecognised)
	}
	outside := len(byteLengthUse.FindAllStringIndex(src, -1)) - len(byteLengthUse.FindAllStringIndex(src[body:body+bodyEnd], -1))
	loops := segmentBytes.findAll(src, loopAnchor)
	if regexp.MustCompile(`function\s+` + ident + `\s*\(\s*(` + ident + `)\s*\)\s*\{\s*return\s+(` + ident + `)\.byteLength\s*;?\s*\}`).MatchString(src) {
		outside-- // byteLengthOfChunk, only ever compared with null
	}
	if outside != len(loops) {
		return "", fmt.Errorf("%w: a chunk's .byteLength is read in %d places outside writeChunk, want %d", ErrUnrecognised, outside, len(loops))
	}
	const guard = "__bext_byteLength"
	// stringToChunk (the first function) returns the string itself where
	// the helpers are.
	ret := enc.start + strings.Index(src[enc.start:enc.end], "return") + len("return")
	c := write.idents["C"]
	edits := []edit{
		moduleDecl(src, nativeDecl(guard, "byteLength")),
		{ret, ret, fmt.Sprintf(" null !== %s ? %s :", guard, enc.idents["A"])},
		{body, body, fmt.Sprintf(`"string" === typeof %s && (%s = %s.encode(%s));`, c, c, e, c)},
	}
	for _, l := range loops {
		if !statementStart(src, l.start) {
			return "", fmt.Errorf("%w: the segment size loop is not a statement", ErrUnrecognised)
		}
		n, i, g := l.idents["N"], l.idents["I"], l.idents["G"]
		edits = append(edits, edit{l.start, l.marks["END"], fmt.Sprintf(
			`var %s = 0, %s = null === %s ? null : %s(%s); if (null === %s) for (%s = 0; %s < %s.length; %s++) %s += %s[%s].byteLength`,
			i, n, guard, guard, g, n, n, i, g, i, n, g, i)})
	}
	return applyEdits(src, edits), nil
}

var loopAnchor = regexp.MustCompile(`\bfor\s*\(\s*var\b`)
