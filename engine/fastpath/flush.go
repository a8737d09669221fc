package fastpath

import (
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

func init() {
	register(rewrite{
		name:   Flush,
		pkg:    "react-dom",
		files:  reactProdLegacy,
		majors: []string{"18", "19"},
		apply:  rewriteFlush,
	})
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
