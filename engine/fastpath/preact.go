package fastpath

import (
	"fmt"
	"regexp"
)

// Preact's string renderer (preact-render-to-string 6) has React's two
// costliest habits on goja: every text and attribute value goes through
// encodeEntities (a regexp test, then a charCodeAt loop), and the HTML of
// an array of children is built with `html += child`, which copies the
// whole string so far for every child (a list of 400 items spent a fifth of
// its render there). Under the names escape and sink:
//
//   - escape: encodeEntities hands strings to __bext_fast.escapeHTMLPreact
//     (Go; " & < only, as Preact escapes);
//   - sink: an array of more than 32 children collects its strings in an
//     array joined once; smaller arrays keep `+=`, which is cheaper there.

func init() {
	preactFiles := regexp.MustCompile(`^dist/(?:index\.mjs|index\.module\.js|commonjs\.js)$`)
	register(
		rewrite{name: Escape, pkg: "preact-render-to-string", files: preactFiles, majors: []string{"6"}, apply: rewritePreactEscape},
		rewrite{name: Sink, pkg: "preact-render-to-string", files: preactFiles, majors: []string{"6"}, apply: rewritePreactChildren},
	)
}

// preactEscape is encodeEntities.
var preactEscape = newShape(`function @F(@E){@{CALL}if(0===@E.length||!1===@Y.test(@E))return @E;for(var @T=0,@N=0,@R="",@O="";@N<@E.length;@N++){switch(@E.charCodeAt(@N)){case 34:@O="&quot;";break;case 38:@O="&amp;";break;case 60:@O="&lt;";break;default:continue}@N!==@T&&(@R+=@E.slice(@T,@N)),@R+=@O,@T=@N+1}return @N!==@T&&(@R+=@E.slice(@T,@N)),@R}`)

func rewritePreactEscape(src string) (string, error) {
	m, err := preactEscape.findOne(src, functionAnchor, "encodeEntities")
	if err != nil {
		return "", err
	}
	if re := m.idents["Y"]; !regexp.MustCompile(`(?:^|[^\w$.])` + regexp.QuoteMeta(re) + `\s*=\s*/\["&<\]/[;,\s]`).MatchString(src) {
		return "", fmt.Errorf("%w: encodeEntities' regexp %s is not /[\"&<]/", ErrUnrecognised, re)
	}
	if !statementStart(src, m.start) {
		return "", fmt.Errorf("%w: encodeEntities is not declared at statement level", ErrUnrecognised)
	}
	e := m.idents["E"]
	return applyEdits(src, []edit{
		{m.start, m.start, nativeDecl("__bext_escapeHTMLPreact", "escapeHTMLPreact")},
		{m.marks["CALL"], m.marks["CALL"], fmt.Sprintf(`if (null !== __bext_escapeHTMLPreact && "string" == typeof %s) return __bext_escapeHTMLPreact(%s);`, e, e)},
	}), nil
}

// preactChildren is the array branch of _renderToString: each child is
// rendered; strings are appended to D, anything else (a pending async
// child) flushes D into the array C.
var preactChildren = newShape(`var @C,@D=@U;@Y[@K]=@E;@{LOOP}for(var @A=@E.length,@S=0;@S<@A;@S++){var @X=@E[@S];if(null!=@X&&"boolean"!=typeof @X){var @L,@J=@Q(@X,@P1,@P2,@P3,@Y,@P5,@P6,@P7);"string"==typeof @J?@{APPEND}@D+=@J@{APPENDEND}:(@{FLUSH}@C||(@C=new Array(@A)),@D&&@C.push(@D),@D=@U,@ISARR(@J)?(@L=@C).push.apply(@L,@J):@C.push(@J))}}@{RET}return @C?(@D&&@C.push(@D),@C):@D`)

var varAnchor = regexp.MustCompile(`\bvar\s+` + ident + `\s*,`)

func rewritePreactChildren(src string) (string, error) {
	m, err := preactChildren.findOne(src, varAnchor, "the children loop of _renderToString")
	if err != nil {
		return "", err
	}
	d, j, e := m.idents["D"], m.idents["J"], m.idents["E"]
	const parts = "__bext_parts"
	return applyEdits(src, []edit{
		{m.marks["LOOP"], m.marks["LOOP"], fmt.Sprintf("var %s = %s.length > 32 ? [] : null;", parts, e)},
		{m.marks["APPEND"], m.marks["APPENDEND"], fmt.Sprintf("(null !== %s ? %s.push(%s) : %s += %s)", parts, parts, j, d, j)},
		{m.marks["FLUSH"], m.marks["FLUSH"], fmt.Sprintf("null !== %s && (%s += %s.join(\"\"), %s = []),", parts, d, parts, parts)},
		{m.marks["RET"], m.marks["RET"], fmt.Sprintf("null !== %s && (%s += %s.join(\"\"));", parts, d, parts)},
	}), nil
}
