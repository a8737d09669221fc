package fastpath

import (
	"fmt"
	"reflect"
	"regexp"
	"strings"

	"github.com/dop251/goja/ast"
	"github.com/dop251/goja/file"
	"github.com/dop251/goja/parser"
	"github.com/dop251/goja/token"
)

// The props rewrite: React's server renderer walks every element's props
// (and style objects) with
//
//	for (key in props) if (hasOwnProperty.call(props, key)) …
//
// goja runs for…in with an iterator that walks the prototype chain and
// keeps a visited map, and the loop pays a hasOwnProperty call per key.
// Object.keys(props) yields the same keys (own, enumerable, string) in the
// same order, so the loop becomes
//
//	for (var K = null == props ? [] : Object.keys(props), I = 0; I < K.length; I++) if ((key = K[I], !0) …
//
// The file is parsed (goja's parser) and a loop is rewritten only when it
// has exactly that shape: the loop variable and the object are plain
// identifiers, the body is an if without else whose test starts with
// H.call(object, key) for H = Object.prototype.hasOwnProperty, and nothing
// in the body assigns the object. The bodies read props and do not add or
// delete keys, the one case where for…in and a snapshot of the keys differ.

func init() {
	register(rewrite{
		name:   Props,
		pkg:    "react-dom",
		files:  reactProdServer,
		majors: []string{"18", "19"},
		apply:  rewriteOwnKeyLoops,
	})
}

func rewriteOwnKeyLoops(src string) (string, error) {
	prog, err := parser.ParseFile(nil, "", src, 0, parser.WithDisableSourceMaps)
	if err != nil {
		return "", fmt.Errorf("%w: %v", ErrUnrecognised, err)
	}
	hasOwn := hasOwnAliases(src)
	var edits []edit
	n := 0
	walk(prog, func(node ast.Node) {
		loop, ok := node.(*ast.ForInStatement)
		if !ok {
			return
		}
		e, ok := ownKeyLoop(loop, hasOwn)
		if !ok {
			return
		}
		body := ifKeyword(src, offset(e.ifs.Test.Idx0()))
		if body < 0 {
			return
		}
		n++
		k, i := fmt.Sprintf("__bext_k%d", n), fmt.Sprintf("__bext_i%d", n)
		header := "for (var "
		if e.decl {
			header += e.key + ", "
		}
		header += fmt.Sprintf("%s = null == %s ? [] : Object.keys(%s), %s = 0; %s < %s.length; %s++) ", k, e.obj, e.obj, i, i, k, i)
		edits = append(edits,
			edit{offset(loop.For), body, header},
			edit{offset(e.call.Idx0()), offset(e.call.Idx1()), fmt.Sprintf("(%s = %s[%s], !0)", e.key, k, i)},
		)
	})
	if n == 0 {
		return "", fmt.Errorf("%w: no `for (k in props) if (hasOwnProperty.call(props, k))` loops", ErrUnrecognised)
	}
	return applyEdits(src, edits), nil
}

// offset turns a parser position (1-based: the file's base) into a byte
// offset.
func offset(i file.Idx) int { return int(i) - 1 }

// ownKey is one loop to rewrite.
type ownKey struct {
	key, obj string
	decl     bool                // `for (var key in obj)`
	call     *ast.CallExpression // H.call(obj, key)
	ifs      *ast.IfStatement    // the loop's body
}

// ifKeyword returns the offset of the `if` whose test starts at test, or
// -1 when src does not read `if (` there.
func ifKeyword(src string, test int) int {
	i := strings.TrimRight(src[:test], " \t\r\n")
	if !strings.HasSuffix(i, "(") {
		return -1
	}
	i = strings.TrimRight(i[:len(i)-1], " \t\r\n")
	if !strings.HasSuffix(i, "if") {
		return -1
	}
	return len(i) - 2
}

func ownKeyLoop(loop *ast.ForInStatement, hasOwn map[string]bool) (ownKey, bool) {
	var e ownKey
	switch into := loop.Into.(type) {
	case *ast.ForIntoVar:
		id, ok := into.Binding.Target.(*ast.Identifier)
		if !ok || into.Binding.Initializer != nil {
			return e, false
		}
		e.key, e.decl = id.Name.String(), true
	case *ast.ForIntoExpression:
		id, ok := into.Expression.(*ast.Identifier)
		if !ok {
			return e, false
		}
		e.key = id.Name.String()
	default:
		return e, false
	}
	obj, ok := loop.Source.(*ast.Identifier)
	if !ok {
		return e, false
	}
	e.obj = obj.Name.String()
	ifs, ok := loop.Body.(*ast.IfStatement)
	if !ok || ifs.Alternate != nil {
		return e, false
	}
	test := ifs.Test
	for {
		b, ok := test.(*ast.BinaryExpression)
		if !ok || b.Operator != token.LOGICAL_AND {
			break
		}
		test = b.Left
	}
	call, ok := test.(*ast.CallExpression)
	if !ok || len(call.ArgumentList) != 2 || !isName(call.ArgumentList[0], e.obj) || !isName(call.ArgumentList[1], e.key) {
		return e, false
	}
	dot, ok := call.Callee.(*ast.DotExpression)
	if !ok || dot.Identifier.Name != "call" {
		return e, false
	}
	h, ok := dot.Left.(*ast.Identifier)
	if !ok || !hasOwn[h.Name.String()] || assigns(ifs, e.obj) {
		return e, false
	}
	e.call, e.ifs = call, ifs
	return e, true
}

func isName(x ast.Expression, name string) bool {
	id, ok := x.(*ast.Identifier)
	return ok && id.Name.String() == name
}

// hasOwnAliases are the identifiers the file sets to
// Object.prototype.hasOwnProperty, and never to anything else.
func hasOwnAliases(src string) map[string]bool {
	out := map[string]bool{}
	for _, m := range hasOwnDecl.FindAllStringSubmatch(src, -1) {
		name := m[1]
		sets := regexp.MustCompile(`(?:^|[^\w$.])`+regexp.QuoteMeta(name)+`\s*=[^=>]`).FindAllStringIndex(src, -1)
		if len(sets) == 1 {
			out[name] = true
		}
	}
	return out
}

var hasOwnDecl = regexp.MustCompile(`(?:^|[^\w$.])(` + ident + `)\s*=\s*Object\.prototype\.hasOwnProperty\b`)

// assigns reports whether anything under node assigns or declares name.
func assigns(node ast.Node, name string) bool {
	found := false
	walk(node, func(n ast.Node) {
		switch x := n.(type) {
		case *ast.AssignExpression:
			found = found || isName(x.Left, name)
		case *ast.UnaryExpression:
			found = found || (x.Operator == token.INCREMENT || x.Operator == token.DECREMENT) && isName(x.Operand, name)
		case *ast.Binding:
			if id, ok := x.Target.(*ast.Identifier); ok && id.Name.String() == name {
				found = true
			}
		}
	})
	return found
}

var astPkg = reflect.TypeOf(ast.Program{}).PkgPath()

// walk calls fn for every AST node under root (root included), parents
// before children, in source order.
func walk(root ast.Node, fn func(ast.Node)) {
	var visit func(v reflect.Value)
	visit = func(v reflect.Value) {
		switch v.Kind() {
		case reflect.Interface:
			if !v.IsNil() {
				visit(v.Elem())
			}
		case reflect.Pointer:
			if v.IsNil() || v.Type().Elem().PkgPath() != astPkg {
				return
			}
			if n, ok := v.Interface().(ast.Node); ok {
				fn(n)
			}
			visit(v.Elem())
		case reflect.Slice:
			for i := range v.Len() {
				visit(v.Index(i))
			}
		case reflect.Struct:
			if v.Type().PkgPath() != astPkg {
				return
			}
			for i := range v.NumField() {
				if v.Type().Field(i).IsExported() {
					visit(v.Field(i))
				}
			}
		}
	}
	visit(reflect.ValueOf(root))
}
