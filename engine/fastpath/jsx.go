package fastpath

import (
	"fmt"
	"regexp"
)

// The jsx rewrite: React 18's jsx()/jsxs() — called once per element by
// compiled JSX — copies the config object into a new props object with
// for…in plus two hasOwnProperty calls per key, dropping key, ref, __self
// and __source. React 19's jsx() skips the copy when the config has no
// key and uses the object itself as props, because JSX compilers always
// pass a fresh object literal that nothing else holds. The rewrite does
// the same for React 18 when the config holds none of the four reserved
// names (an `in` test, so inherited ones count too), and copies as before
// otherwise. What the rendered HTML and the components see is the same;
// only `element.props === config` (unobservable for compiled JSX) and
// symbol-keyed or non-enumerable config properties (which React 18 drops
// and React 19 keeps) differ, exactly as between React 18 and 19.

func init() {
	register(rewrite{
		name:   JSX,
		pkg:    "react",
		files:  regexp.MustCompile(`^cjs/react-jsx-runtime\.production\.min\.js$`),
		majors: []string{"18"},
		apply:  rewriteJSX,
	})
}

// jsx18 is React 18's production jsx().
var jsx18 = newShape(`function @Q(@C,@A,@G){var @B,@D@{INIT}={}@{INITEND},@E=null,@H=null;void 0!==@G&&(@E=""+@G);void 0!==@A.key&&(@E=""+@A.key);void 0!==@A.ref&&(@H=@A.ref);@{LOOP}for(@B in @A)@M.call(@A,@B)&&!@P.hasOwnProperty(@B)&&(@D[@B]=@A[@B])~@{END}if(@C&&@C.defaultProps)for(@B in @A=@C.defaultProps,@A)void 0===@D[@B]&&(@D[@B]=@A[@B])~return{$$typeof:@K,type:@C,key:@E,ref:@H,props:@D,_owner:@N.current}~}`)

func rewriteJSX(src string) (string, error) {
	m, err := jsx18.findOne(src, functionAnchor, "jsx()")
	if err != nil {
		return "", err
	}
	id := m.idents
	for _, decl := range []struct{ name, value, what string }{
		{id["M"], `Object\.prototype\.hasOwnProperty\b`, "Object.prototype.hasOwnProperty"},
		{id["P"], `\{\s*key\s*:\s*(?:!0|true)\s*,\s*ref\s*:\s*(?:!0|true)\s*,\s*__self\s*:\s*(?:!0|true)\s*,\s*__source\s*:\s*(?:!0|true)\s*\}`, "{key, ref, __self, __source}"},
	} {
		re := regexp.MustCompile(`(?:^|[^\w$.])` + regexp.QuoteMeta(decl.name) + `\s*=[^=]`)
		if n := len(re.FindAllStringIndex(src, -1)); n != 1 ||
			!regexp.MustCompile(`(?:^|[^\w$.])`+regexp.QuoteMeta(decl.name)+`\s*=\s*`+decl.value).MatchString(src) {
			return "", fmt.Errorf("%w: jsx()'s %s is not set once to %s", ErrUnrecognised, decl.name, decl.what)
		}
	}
	a, b, d := id["A"], id["B"], id["D"]
	reserved := fmt.Sprintf(`"key" in %s || "ref" in %s || "__self" in %s || "__source" in %s`, a, a, a, a)
	copyLoop := fmt.Sprintf(`for (%s in %s = {}, %s) %s.call(%s, %s) && !%s.hasOwnProperty(%s) && (%s[%s] = %s[%s]);`,
		b, d, a, id["M"], a, b, id["P"], b, d, b, a, b)
	return applyEdits(src, []edit{
		{m.marks["INIT"], m.marks["INITEND"], ""},
		{m.marks["LOOP"], m.marks["END"], fmt.Sprintf("if (%s) %s else %s = %s;", reserved, copyLoop, d, a)},
	}), nil
}
