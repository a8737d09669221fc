package fastpath

import (
	"fmt"
	"strings"

	"github.com/dop251/goja/ast"
	"github.com/dop251/goja/parser"
)

// The concat rewrite: renderToString's builder pushes an attribute as five
// chunks (`target.push(" ", name, '="', escapeTextForBrowser(value), '"')`)
// and a closing tag as three (`target.push("</", type, ">")`); every chunk
// costs an array slot on goja (each new index is looked up on the
// prototype chain) and a share of the final join. The rewrite pushes the
// same text as one string: `target.push(" " + name + '="' +
// escapeTextForBrowser(value) + '"')`. Only the legacy (renderToString)
// builds are rewritten: their chunks are strings that are only ever joined
// (or their lengths summed), so how the text is cut into chunks is
// invisible. The streaming builds mix strings with precomputed byte chunks
// and are left alone. Only pushes whose arguments are exactly those
// literals, a plain identifier (the attribute name or tag, always a
// string there) and a call of the file's escapeTextForBrowser are touched.

func init() {
	register(rewrite{
		name:   Concat,
		pkg:    "react-dom",
		files:  reactProdLegacy,
		majors: []string{"18", "19"},
		apply:  rewriteConcat,
	})
}

// chunkPatterns are the argument lists merged: a string is that literal,
// "name" a plain identifier, "escape(…)" a one-argument call of the
// escape function.
var chunkPatterns = [][]string{
	{`" "`, "name", `"=\""`, "escape(…)", `"\""`},
	{`" "`, "name", `"=\"\""`},
	{`"</"`, "name", `">"`},
}

func rewriteConcat(src string) (string, error) {
	var esc []match
	for _, sh := range reactEscapeShapes {
		esc = append(esc, sh.findAll(src, functionAnchor)...)
	}
	if len(esc) != 1 {
		return "", fmt.Errorf("%w: found %d copies of escapeTextForBrowser, want 1", ErrUnrecognised, len(esc))
	}
	escName := esc[0].idents["F"]
	prog, err := parser.ParseFile(nil, "", src, 0, parser.WithDisableSourceMaps)
	if err != nil {
		return "", fmt.Errorf("%w: %v", ErrUnrecognised, err)
	}
	var edits []edit
	walk(prog, func(n ast.Node) {
		call, ok := n.(*ast.CallExpression)
		if !ok || !isPush(call) || !matchesChunks(call.ArgumentList, escName) {
			return
		}
		parts := make([]string, len(call.ArgumentList))
		for i, a := range call.ArgumentList {
			parts[i] = src[offset(a.Idx0()):offset(a.Idx1())]
		}
		edits = append(edits, edit{offset(call.ArgumentList[0].Idx0()), offset(call.ArgumentList[len(parts)-1].Idx1()), strings.Join(parts, " + ")})
	})
	if len(edits) == 0 {
		return "", fmt.Errorf("%w: no attribute or closing-tag pushes of the known shape", ErrUnrecognised)
	}
	return applyEdits(src, edits), nil
}

func isPush(call *ast.CallExpression) bool {
	dot, ok := call.Callee.(*ast.DotExpression)
	if !ok || dot.Identifier.Name != "push" {
		return false
	}
	_, ok = dot.Left.(*ast.Identifier)
	if !ok {
		_, ok = dot.Left.(*ast.DotExpression) // segment.chunks.push
	}
	return ok
}

func matchesChunks(args []ast.Expression, escName string) bool {
next:
	for _, p := range chunkPatterns {
		if len(p) != len(args) {
			continue
		}
		for i, want := range p {
			switch a := args[i].(type) {
			case *ast.StringLiteral:
				if want != fmt.Sprintf("%q", a.Value.String()) {
					continue next
				}
			case *ast.Identifier:
				if want != "name" {
					continue next
				}
			case *ast.CallExpression:
				fn, ok := a.Callee.(*ast.Identifier)
				if want != "escape(…)" || !ok || fn.Name.String() != escName || len(a.ArgumentList) != 1 {
					continue next
				}
			default:
				continue next
			}
		}
		return true
	}
	return false
}
