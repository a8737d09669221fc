package fastpath

import (
	"fmt"
	"regexp"
	"strings"
)

func init() {
	register(rewrite{
		name:   Sink,
		pkg:    "react-dom",
		files:  regexp.MustCompile(`^cjs/react-dom-server[^/]*\.js$`),
		skip:   func(src string) bool { return !definesRenderToString(src) },
		majors: []string{"18", "19"},
		apply:  rewriteSink,
	})
}

const ident = `[A-Za-z_$][\w$]*`

// sinkRE matches the push method of the renderToString destination in the
// two shapes React ships: the React 18 development build
//
//	push: function (chunk) { if (chunk !== null) { result += chunk; } return true; }
//
// and the React 18 production / React 19 builds
//
//	push: function (chunk) { null !== chunk && (result += chunk); return !0; }
//
// Go regexps have no back-references, so names are checked in code.
var sinkRE = regexp.MustCompile(`push\s*:\s*function\s*\(\s*(` + ident + `)\s*\)\s*\{\s*` +
	`(?:if\s*\(\s*(` + ident + `)\s*!==\s*null\s*\)\s*\{\s*((` + ident + `)\s*\+=\s*(` + ident + `))\s*;?\s*\}` +
	`|null\s*!==\s*(` + ident + `)\s*&&\s*\(\s*((` + ident + `)\s*\+=\s*(` + ident + `))\s*\))` +
	`\s*;?\s*return\s*(?:true|!0)\s*;?\s*\}`)

// window bounds how far from the sink the initialisation and the return
// may be; renderToStringImpl is a few hundred bytes either side.
const window = 4096

// sink is one parsed match of sinkRE.
type sink struct {
	start, end         int // whole push method
	addStart, addEnd   int // `result += chunk`
	result, chunk, arg string
}

func findSinks(src string) []sink {
	var out []sink
	for _, m := range sinkRE.FindAllStringSubmatchIndex(src, -1) {
		s := sink{start: m[0], end: m[1], arg: src[m[2]:m[3]]}
		g := 4 // group 2 of the first alternative
		if m[4] < 0 {
			g = 12 // group 6: the second alternative
		}
		test := src[m[g]:m[g+1]]
		s.addStart, s.addEnd = m[g+2], m[g+3]
		s.result = src[m[g+4]:m[g+5]]
		s.chunk = src[m[g+6]:m[g+7]]
		if test != s.arg || s.chunk != s.arg || s.result == s.arg {
			continue
		}
		out = append(out, s)
	}
	return out
}

// rewriteSink returns src with its renderToString sink rewritten to push
// chunks into an array and join them once. Any doubt about the shape — no
// sink, more than one, the result variable used anywhere but its
// initialisation, the push and the return — is an error wrapping
// ErrUnrecognised, and src must then be used unchanged.
func rewriteSink(src string) (string, error) {
	sinks := findSinks(src)
	if len(sinks) != 1 {
		return "", fmt.Errorf("%w: found %d renderToString string sinks, want 1", ErrUnrecognised, len(sinks))
	}
	s := sinks[0]
	r := regexp.QuoteMeta(s.result)

	lo := max(0, s.start-window)
	inits := regexp.MustCompile(`(?:^|[^\w$.])(`+r+`\s*=\s*(?:""|''))`).FindAllStringSubmatchIndex(src[lo:s.start], -1)
	if len(inits) == 0 {
		return "", fmt.Errorf("%w: no `%s = \"\"` before the sink", ErrUnrecognised, s.result)
	}
	init := inits[len(inits)-1]
	initStart, initEnd := lo+init[2], lo+init[3]

	hi := min(len(src), s.end+window)
	ret := regexp.MustCompile(`(?:^|[^\w$.])return\s+(` + r + `)(?:[^\w$.]|$)`).FindStringSubmatchIndex(src[s.end:hi])
	if ret == nil {
		return "", fmt.Errorf("%w: no `return %s` after the sink", ErrUnrecognised, s.result)
	}
	retStart, retEnd := s.end+ret[2], s.end+ret[3]

	// The only uses of the result variable between its initialisation and
	// its return must be those three; anything else (a read in between, a
	// second writer) could see an array where React expects a string.
	if n := identUses(src[initStart:retEnd], s.result); n != 3 {
		return "", fmt.Errorf("%w: %s is used %d times around the sink, want 3", ErrUnrecognised, s.result, n)
	}

	var b strings.Builder
	b.Grow(len(src) + 32)
	b.WriteString(src[:initStart])
	b.WriteString(s.result + " = []")
	b.WriteString(src[initEnd:s.addStart])
	b.WriteString(s.result + ".push(" + s.chunk + ")")
	b.WriteString(src[s.addEnd:retStart])
	b.WriteString(s.result + `.join("")`)
	b.WriteString(src[retEnd:])
	return b.String(), nil
}

// Sinks counts, in any JavaScript text (a react-dom file or a whole bundle
// esbuild printed, minified or not), the `push: function (chunk) {…}`
// destinations that still concatenate strings (stock) and those that push
// into an array (fast). A bundle built with the plugin has stock == 0 and
// fast ≥ 1; one built without it has stock ≥ 1.
func Sinks(code string) (stock, fast int) {
	for _, m := range pushRE.FindAllStringSubmatchIndex(code, -1) {
		arg := code[m[2]:m[3]]
		body := code[m[1]:min(len(code), m[1]+200)]
		if i := strings.Index(body, "function"); i >= 0 {
			body = body[:i] // the next function is another scope
		}
		if !strings.Contains(body, "null") {
			continue
		}
		switch {
		case regexp.MustCompile(`(?:^|[^\w$.])` + ident + `\s*\+=\s*` + regexp.QuoteMeta(arg) + `(?:[^\w$]|$)`).MatchString(body):
			stock++
		case regexp.MustCompile(`\.push\(\s*` + regexp.QuoteMeta(arg) + `\s*\)`).MatchString(body):
			fast++
		}
	}
	return stock, fast
}

var pushRE = regexp.MustCompile(`push\s*:\s*function\s*\(\s*(` + ident + `)\s*\)\s*\{`)

// identUses counts occurrences of the identifier name in code that are not
// part of a longer identifier or a property access.
func identUses(code, name string) int {
	n := 0
	for i := 0; ; {
		j := strings.Index(code[i:], name)
		if j < 0 {
			return n
		}
		at := i + j
		end := at + len(name)
		if (at == 0 || !isIdentOrDot(code[at-1])) && (end == len(code) || !isIdent(code[end])) {
			n++
		}
		i = end
	}
}

func isIdent(c byte) bool {
	return c == '_' || c == '$' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}

func isIdentOrDot(c byte) bool { return c == '.' || isIdent(c) }

var renderToStringExport = regexp.MustCompile(`exports\.renderToString\s*=`)

func definesRenderToString(src string) bool { return renderToStringExport.MatchString(src) }
