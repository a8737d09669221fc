package fastpath

import (
	"errors"

	"github.com/dop251/goja"
)

// Global is the name of the object Install puts on an isolate's global
// object. Rewritten library code reads it once, when its module loads, with
// `typeof` (so the same bundle still runs in Node, where it is undefined and
// the library's own code runs instead).
const Global = "__bext_fast"

// Install adds the native helpers the rewrites call to rt:
// globalThis.__bext_fast = {escapeHTML, escapeHTMLVue, escapeHTMLPreact,
// concatChunks, byteLength}, not enumerable, not writable. It must run before the
// bundle.
func Install(rt *goja.Runtime) error {
	o := rt.NewObject()
	for name, e := range map[string]*entities{"escapeHTML": &reactEntities, "escapeHTMLVue": &vueEntities, "escapeHTMLPreact": &preactEntities} {
		if err := o.Set(name, escapeFunc(rt, e)); err != nil {
			return err
		}
	}
	u8, ok := goja.AssertConstructor(rt.Get("Uint8Array"))
	if !ok {
		return errors.New("fastpath: the runtime has no Uint8Array")
	}
	if err := o.Set("concatChunks", concatChunks(rt, u8)); err != nil {
		return err
	}
	if err := o.Set("byteLength", byteLength(rt)); err != nil {
		return err
	}
	return rt.GlobalObject().DefineDataProperty(Global, o, goja.FLAG_FALSE, goja.FLAG_FALSE, goja.FLAG_FALSE)
}

// escapeFunc is an HTML escape function for JS: its argument (a string;
// anything else is converted with ToString) with every character e has an
// entry for replaced.
func escapeFunc(rt *goja.Runtime, e *entities) func(goja.FunctionCall) goja.Value {
	return func(call goja.FunctionCall) goja.Value {
		return escapeWith(rt, call.Argument(0), e)
	}
}

// entities maps the escaped ASCII characters to their replacements; the
// other entries are "".
type entities [128]string

// The three escapers' tables: React's escapeTextForBrowser, Vue's
// escapeHtml (@vue/shared) and Preact's encodeEntities
// (preact-render-to-string), which leaves ' and > alone.
var (
	reactEntities  = entities{'"': "&quot;", '&': "&amp;", '\'': "&#x27;", '<': "&lt;", '>': "&gt;"}
	vueEntities    = entities{'"': "&quot;", '&': "&amp;", '\'': "&#39;", '<': "&lt;", '>': "&gt;"}
	preactEntities = entities{'"': "&quot;", '&': "&amp;", '<': "&lt;"}
)

// escapeWith returns v (a string; anything else is converted with ToString
// first) with every character that has an entry in e replaced. A string
// with nothing to replace is returned as is, without copying.
func escapeWith(rt *goja.Runtime, v goja.Value, e *entities) goja.Value {
	s, ok := v.(goja.String)
	if !ok {
		s = v.ToString().(goja.String)
	}
	n := s.Length()
	first := -1
	for i := 0; i < n; i++ {
		if c := s.CharAt(i); c < 128 && e[c] != "" {
			first = i
			break
		}
	}
	if first < 0 {
		return s
	}
	var b goja.StringBuilder
	b.Grow(n + 16)
	from := 0
	for i := first; i < n; i++ {
		c := s.CharAt(i)
		if c >= 128 || e[c] == "" {
			continue
		}
		if from < i {
			b.WriteString(s.Substring(from, i))
		}
		b.WriteUTF8String(e[c])
		from = i + 1
	}
	if from < n {
		b.WriteString(s.Substring(from, n))
	}
	return b.String()
}

// concatChunks returns the function concatChunks(chunks, from): the
// elements of the array chunks from index from on, concatenated into one
// new Uint8Array — strings as UTF-8 (a lone surrogate becomes U+FFFD, as
// TextEncoder encodes it), Uint8Arrays (and other byte views) as their
// bytes. It returns null when an element is anything else, and the caller
// then writes the chunks itself.
func concatChunks(rt *goja.Runtime, u8 goja.Constructor) func(goja.FunctionCall) goja.Value {
	return func(call goja.FunctionCall) goja.Value {
		items, n, ok := exportChunks(call.Argument(0), call.Argument(1).ToInteger())
		if !ok {
			return goja.Null()
		}
		buf := make([]byte, 0, n)
		for _, it := range items {
			switch c := it.(type) {
			case string:
				buf = append(buf, c...)
			case []byte:
				buf = append(buf, c...)
			}
		}
		out, err := u8(nil, rt.ToValue(rt.NewArrayBuffer(buf)))
		if err != nil {
			panic(err)
		}
		return out
	}
}

// byteLength(chunks) is the length of what concatChunks(chunks, 0)
// returns: the sum of the chunks' sizes in UTF-8, as React 19 sums their
// encodings' byteLength; null when concatChunks would return null.
func byteLength(rt *goja.Runtime) func(goja.FunctionCall) goja.Value {
	return func(call goja.FunctionCall) goja.Value {
		_, n, ok := exportChunks(call.Argument(0), 0)
		if !ok {
			return goja.Null()
		}
		return rt.ToValue(n)
	}
}

// exportChunks returns the elements of the array chunks from index from
// on, exported, and their size in bytes: ok only if each is a string
// (exported as UTF-8) or a byte view.
func exportChunks(chunks goja.Value, from int64) (items []any, n int, ok bool) {
	arr, ok := chunks.(*goja.Object)
	if !ok {
		return nil, 0, false
	}
	all, ok := arr.Export().([]any)
	if !ok || from < 0 || from > int64(len(all)) {
		return nil, 0, false
	}
	for _, it := range all[from:] {
		switch c := it.(type) {
		case string:
			n += len(c)
		case []byte:
			n += len(c)
		default:
			return nil, 0, false
		}
	}
	return all[from:], n, true
}
