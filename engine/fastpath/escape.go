package fastpath

import (
	"fmt"
	"regexp"
)

// The escape rewrite: React's escapeTextForBrowser (every text node and
// attribute value of a server render goes through it) runs a regexp and
// then a charCodeAt loop in JS; on goja the pair costs microseconds per
// string. The rewrite keeps the function and its type checks and hands the
// string to __bext_fast.escapeHTML (native.go), which scans it in Go and
// returns it unchanged, without copying, when there is nothing to escape.
// Where __bext_fast is absent (the same bundle in Node) the JS runs as
// before.

func init() {
	register(rewrite{
		name:   Escape,
		pkg:    "react-dom",
		files:  reactProdServer,
		majors: []string{"18", "19"},
		apply:  rewriteReactEscape,
	})
}

// reactProdServer selects react-dom's production server renderers: the
// legacy one (renderToString, renderToStaticMarkup) and the streaming ones
// (renderToReadableStream, renderToPipeableStream, prerender), for every
// runtime React builds them for. Development builds are left alone.
var reactProdServer = regexp.MustCompile(`^cjs/react-dom-server(?:-legacy)?\.(?:browser|node|edge|bun)\.production(?:\.min)?\.js$`)

// reactEscapeShapes are escapeTextForBrowser as React 18 (minified) and
// React 19 (pretty, with bigint) ship it; @{CALL} marks where the native
// call goes, after the value has been made a string.
var reactEscapeShapes = []*shape{
	newShape(`function @F(@P){if("boolean"===typeof @P||"number"===typeof @P)return""+@P;@P=""+@P;@{CALL}var @M=@R.exec(@P);if(@M){var @H="",@I,@L=0;for(@I=@M.index;@I<@P.length;@I++){switch(@P.charCodeAt(@I)){case 34:@M="&quot;";break;case 38:@M="&amp;";break;case 39:@M="&#x27;";break;case 60:@M="&lt;";break;case 62:@M="&gt;";break;default:continue~}@L!==@I&&(@H+=@P.substring(@L,@I));@L=@I+1;@H+=@M~}@P=@L!==@I?@H+@P.substring(@L,@I):@H~}return @P~}`),
	newShape(`function @F(@P){if("boolean"===typeof @P||"number"===typeof @P||"bigint"===typeof @P)return""+@P;@P=""+@P;@{CALL}var @M=@R.exec(@P);if(@M){var @H="",@I,@L=0;for(@I=@M.index;@I<@P.length;@I++){switch(@P.charCodeAt(@I)){case 34:@M="&quot;";break;case 38:@M="&amp;";break;case 39:@M="&#x27;";break;case 60:@M="&lt;";break;case 62:@M="&gt;";break;default:continue~}@L!==@I&&(@H+=@P.slice(@L,@I));@L=@I+1;@H+=@M~}@P=@L!==@I?@H+@P.slice(@L,@I):@H~}return @P~}`),
}

var functionAnchor = regexp.MustCompile(`\bfunction\s+` + ident + `\s*\(`)

// nativeDecl declares, in the library's own scope, a variable holding one
// native helper, or null where bext's helpers are absent.
func nativeDecl(local, helper string) string {
	return fmt.Sprintf("var %s = \"object\" === typeof %s && null !== %s ? %s.%s : null;\n", local, Global, Global, Global, helper)
}

func rewriteReactEscape(src string) (string, error) {
	var found []match
	for _, sh := range reactEscapeShapes {
		found = append(found, sh.findAll(src, functionAnchor)...)
	}
	if len(found) != 1 {
		return "", fmt.Errorf("%w: found %d copies of escapeTextForBrowser, want 1", ErrUnrecognised, len(found))
	}
	m := found[0]
	re := m.idents["R"]
	if !regexp.MustCompile(`(?:^|[^\w$.])` + regexp.QuoteMeta(re) + `\s*=\s*/\["'&<>\]/[;,\s]`).MatchString(src) {
		return "", fmt.Errorf("%w: escapeTextForBrowser's regexp %s is not /[\"'&<>]/", ErrUnrecognised, re)
	}
	if !statementStart(src, m.start) {
		return "", fmt.Errorf("%w: escapeTextForBrowser is not declared at statement level", ErrUnrecognised)
	}
	p := m.idents["P"]
	return applyEdits(src, []edit{
		{m.start, m.start, nativeDecl("__bext_escapeHTML", "escapeHTML")},
		{m.marks["CALL"], m.marks["CALL"], "if (null !== __bext_escapeHTML) return __bext_escapeHTML(" + p + ");\n"},
	}), nil
}
