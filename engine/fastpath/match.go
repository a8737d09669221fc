package fastpath

import (
	"fmt"
	"regexp"
	"strings"
)

// A shape is a piece of library code written out once, minified, with its
// identifiers as placeholders: `function @F(@P){return @P}`. It matches the
// same code in the library's minified and pretty-printed builds alike:
// whitespace may appear between any two tokens (a space in the shape means
// at least one, and ~ an optional semicolon), and each placeholder matches an identifier, the same one
// everywhere it appears. A placeholder written `@{X}` marks a position:
// Match reports the offset where X would start, without consuming text.
type shape struct {
	re    *regexp.Regexp
	names []string // placeholder of each capture group, "" for positions
	marks []string // position markers, in group order
}

func newShape(s string) *shape {
	var b strings.Builder
	sh := &shape{}
	b.WriteString(`^`)
	prevSpace := false
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == '@' && i+1 < len(s) && s[i+1] == '{':
			j := i + 2 + strings.IndexByte(s[i+2:], '}')
			sh.marks = append(sh.marks, s[i+2:j])
			sh.names = append(sh.names, "="+s[i+2:j])
			b.WriteString(`\s*()`)
			i, prevSpace = j+1, false
			continue
		case c == '@':
			j := i + 1
			for j < len(s) && isIdent(s[j]) {
				j++
			}
			sh.names = append(sh.names, s[i+1:j])
			b.WriteString(`\s*(` + ident + `)`)
			i, prevSpace = j, false
			continue
		case c == '~':
			b.WriteString(`\s*;?`)
			i++
			continue
		case c == ' ':
			b.WriteString(`\s+`)
			prevSpace = true
			i++
			continue
		}
		if !prevSpace && i > 0 {
			b.WriteString(`\s*`)
		}
		prevSpace = false
		b.WriteString(regexp.QuoteMeta(string(c)))
		i++
	}
	sh.re = regexp.MustCompile(b.String())
	return sh
}

// match is one match of a shape.
type match struct {
	start, end int
	idents     map[string]string // placeholder -> identifier
	marks      map[string]int    // position marker -> offset in src
}

// matchAt matches the shape at src[at:] (it must start there). A match
// whose placeholders disagree (one name bound to two identifiers) is no
// match; neither is one that binds two placeholders to one identifier.
func (sh *shape) matchAt(src string, at int) (match, bool) {
	m := sh.re.FindStringSubmatchIndex(src[at:])
	if m == nil {
		return match{}, false
	}
	r := match{start: at + m[0], end: at + m[1], idents: map[string]string{}, marks: map[string]int{}}
	bound := map[string]string{} // identifier -> placeholder
	for g, name := range sh.names {
		lo, hi := m[2+2*g], m[3+2*g]
		if strings.HasPrefix(name, "=") {
			r.marks[name[1:]] = at + lo
			continue
		}
		id := src[at+lo : at+hi]
		if prev, ok := r.idents[name]; ok && prev != id {
			return match{}, false
		}
		if other, ok := bound[id]; ok && other != name {
			return match{}, false
		}
		r.idents[name], bound[id] = id, name
	}
	return r, true
}

// findAll returns every match of the shape whose first token begins at a
// match of the anchor regexp, which should be cheap and select only
// plausible starts.
func (sh *shape) findAll(src string, anchor *regexp.Regexp) []match {
	var out []match
	for _, loc := range anchor.FindAllStringIndex(src, -1) {
		if m, ok := sh.matchAt(src, loc[0]); ok {
			out = append(out, m)
		}
	}
	return out
}

// findOne is findAll for code that must occur exactly once.
func (sh *shape) findOne(src string, anchor *regexp.Regexp, what string) (match, error) {
	ms := sh.findAll(src, anchor)
	if len(ms) != 1 {
		return match{}, fmt.Errorf("%w: found %d copies of %s, want 1", ErrUnrecognised, len(ms), what)
	}
	return ms[0], nil
}

// edit is a replacement of src[start:end].
type edit struct {
	start, end int
	text       string
}

// applyEdits applies non-overlapping edits (in any order) to src.
func applyEdits(src string, edits []edit) string {
	sorted := append([]edit(nil), edits...)
	for i := 1; i < len(sorted); i++ {
		for j := i; j > 0 && sorted[j].start < sorted[j-1].start; j-- {
			sorted[j], sorted[j-1] = sorted[j-1], sorted[j]
		}
	}
	var b strings.Builder
	b.Grow(len(src) + 256)
	at := 0
	for _, e := range sorted {
		b.WriteString(src[at:e.start])
		b.WriteString(e.text)
		at = e.end
	}
	b.WriteString(src[at:])
	return b.String()
}

// statementStart reports whether a statement may be put in front of
// src[at:]: what precedes it (spaces aside) ends a statement or opens or
// closes a block, or is the start of the file.
func statementStart(src string, at int) bool {
	i := at - 1
	for i >= 0 && (src[i] == ' ' || src[i] == '\t' || src[i] == '\n' || src[i] == '\r') {
		i--
	}
	return i < 0 || src[i] == ';' || src[i] == '}' || src[i] == '{'
}

// directive is a "use strict" directive at the start of a file, after
// comments and blank lines.
var directive = regexp.MustCompile(`^(?:\s+|//[^\n]*\n|/\*(?:[^*]|\*+[^*/])*\*+/)*(?:"use strict"|'use strict')\s*;?`)

// moduleDecl inserts decl where a statement at the top of the file may go:
// after its "use strict" directive, if it has one (a statement before it
// would turn the directive into an expression), else at the start.
func moduleDecl(src, decl string) edit {
	at := 0
	if m := directive.FindStringIndex(src); m != nil {
		at = m[1]
	}
	return edit{at, at, "\n" + decl}
}
