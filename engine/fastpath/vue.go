package fastpath

import (
	"fmt"
	"regexp"
)

// Vue's server renderer (@vue/server-renderer 3 with @vue/shared) escapes
// every interpolation and attribute value with escapeHtml (a regexp exec,
// then a charCodeAt loop: a tenth of a list page's render on goja) and
// turns its nested buffer into the page with `ret += item`, copying the
// page so far once per chunk. Under the names escape and sink:
//
//   - escape: escapeHtml hands the string to __bext_fast.escapeHTMLVue (Go,
//     with Vue's &#39;);
//   - sink: unrollBufferSync collects the strings of the nested buffer in
//     one array and joins it once.

func init() {
	register(
		rewrite{name: Escape, pkg: "@vue/shared", files: regexp.MustCompile(`^dist/shared\.cjs\.prod\.js$`), majors: []string{"3"}, apply: rewriteVueEscape},
		rewrite{name: Sink, pkg: "@vue/server-renderer", files: regexp.MustCompile(`^dist/server-renderer\.cjs\.prod\.js$`), majors: []string{"3"}, apply: rewriteVueUnroll},
	)
}

var vueEscape = newShape(`function @F(@S){const @T=""+@S~@{CALL}const @M=@R.exec(@T)~if(!@M){return @T~}let @H=""~let @E~let @I~let @L=0~for(@I=@M.index;@I<@T.length;@I++){switch(@T.charCodeAt(@I)){case 34:@E="&quot;"~break~case 38:@E="&amp;"~break~case 39:@E="&#39;"~break~case 60:@E="&lt;"~break~case 62:@E="&gt;"~break~default:continue~}if(@L!==@I){@H+=@T.slice(@L,@I)~}@L=@I+1~@H+=@E~}return @L!==@I?@H+@T.slice(@L,@I):@H~}`)

func rewriteVueEscape(src string) (string, error) {
	m, err := vueEscape.findOne(src, functionAnchor, "escapeHtml")
	if err != nil {
		return "", err
	}
	if re := m.idents["R"]; !regexp.MustCompile(`(?:^|[^\w$.])` + regexp.QuoteMeta(re) + `\s*=\s*/\["'&<>\]/[;,\s]`).MatchString(src) {
		return "", fmt.Errorf("%w: escapeHtml's regexp %s is not /[\"'&<>]/", ErrUnrecognised, re)
	}
	if !statementStart(src, m.start) {
		return "", fmt.Errorf("%w: escapeHtml is not declared at statement level", ErrUnrecognised)
	}
	t := m.idents["T"]
	return applyEdits(src, []edit{
		{m.start, m.start, nativeDecl("__bext_escapeHTMLVue", "escapeHTMLVue")},
		{m.marks["CALL"], m.marks["CALL"], fmt.Sprintf("if (null !== __bext_escapeHTMLVue) return __bext_escapeHTMLVue(%s);\n", t)},
	}), nil
}

// vueUnroll is unrollBufferSync$1, which renderToString uses once the
// buffer holds no promise.
var vueUnroll = newShape(`function @F(@B){let @R=""~for(let @I=0;@I<@B.length;@I++){let @T=@B[@I]~if(@S.isString(@T)){@R+=@T~}else{@R+=@F(@T)~}}return @R~}`)

func rewriteVueUnroll(src string) (string, error) {
	m, err := vueUnroll.findOne(src, functionAnchor, "unrollBufferSync")
	if err != nil {
		return "", err
	}
	f, s := m.idents["F"], m.idents["S"]
	return applyEdits(src, []edit{{m.start, m.end, fmt.Sprintf(`function %s(buffer) {
  var parts = [];
  __bext_unrollInto(buffer, parts);
  return parts.join("");
}
function __bext_unrollInto(buffer, parts) {
  for (let i = 0; i < buffer.length; i++) {
    let item = buffer[i];
    if (%s.isString(item)) parts.push(item);
    else __bext_unrollInto(item, parts);
  }
}`, f, s)}}), nil
}
