package intl

import (
	"unicode"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/dop251/goja"
	"github.com/rivo/uniseg"
)

type segmenter struct {
	locale, granularity string
}

// segment is one piece of a segmented string, in UTF-16 code units as JS
// counts them.
type segment struct {
	start, end int
	wordLike   bool
}

func (r *realm) installSegmenter() {
	_, proto := r.class("Segmenter", 0, true, func(args []goja.Value, proto *goja.Object) *goja.Object {
		return r.wrap(r.newSegmenter(arg(args, 0), arg(args, 1)), proto)
	})
	this := func(c goja.FunctionCall, m string) *segmenter {
		p, ok := unwrap[*segmenter](c.This)
		if !ok {
			r.throwType("Method Intl.Segmenter.prototype." + m + " called on incompatible receiver " + safeString(c.This))
		}
		return p
	}
	segsProto := r.rt.NewObject()
	iterProto := r.rt.NewObject()
	if ip := r.iteratorPrototype(); ip != nil {
		iterProto.SetPrototype(ip)
	}
	iterProto.DefineDataPropertySymbol(goja.SymToStringTag, r.rt.ToValue("Segmenter String Iterator"), goja.FLAG_FALSE, goja.FLAG_TRUE, goja.FLAG_FALSE)
	type segData struct {
		s     *segmenter
		input goja.Value
		u16   []uint16
		segs  []segment
	}
	segObj := func(d *segData, sg segment) goja.Value {
		o := r.rt.NewObject()
		r.cdp(o, "segment", string(utf16.Decode(d.u16[sg.start:sg.end])))
		r.cdp(o, "index", sg.start)
		r.cdp(o, "input", d.input)
		if d.s.granularity == "word" {
			r.cdp(o, "isWordLike", sg.wordLike)
		}
		return o
	}
	r.method(segsProto, "containing", 1, func(c goja.FunctionCall) goja.Value {
		d, ok := unwrap[*segData](c.This)
		if !ok {
			r.throwType("Method %Segments.prototype%.containing called on incompatible receiver")
		}
		idx := 0.0
		if !goja.IsUndefined(c.Argument(0)) {
			idx = c.Argument(0).ToFloat()
		}
		if idx != idx {
			idx = 0
		}
		if idx < 0 || idx >= float64(len(d.u16)) {
			return goja.Undefined()
		}
		n := int(idx)
		for _, sg := range d.segs {
			if n >= sg.start && n < sg.end {
				return segObj(d, sg)
			}
		}
		return goja.Undefined()
	})
	r.method(iterProto, "next", 0, func(c goja.FunctionCall) goja.Value {
		it, ok := unwrap[*segIter](c.This)
		if !ok {
			r.throwType("Method %SegmentIterator.prototype%.next called on incompatible receiver")
		}
		o := r.rt.NewObject()
		d := it.d.(*segData)
		if it.i >= len(d.segs) {
			r.cdp(o, "value", goja.Undefined())
			r.cdp(o, "done", true)
			return o
		}
		r.cdp(o, "value", segObj(d, d.segs[it.i]))
		r.cdp(o, "done", false)
		it.i++
		return o
	})
	iterFn := r.rt.ToValue(func(c goja.FunctionCall) goja.Value {
		d, ok := unwrap[*segData](c.This)
		if !ok {
			r.throwType("Method %Segments.prototype%[@@iterator] called on incompatible receiver")
		}
		return r.wrap(&segIter{d: d}, iterProto)
	}).(*goja.Object)
	iterFn.DefineDataProperty("name", r.rt.ToValue("[Symbol.iterator]"), goja.FLAG_FALSE, goja.FLAG_TRUE, goja.FLAG_FALSE)
	segsProto.DefineDataPropertySymbol(goja.SymIterator, iterFn, goja.FLAG_TRUE, goja.FLAG_TRUE, goja.FLAG_FALSE)
	r.method(proto, "segment", 1, func(c goja.FunctionCall) goja.Value {
		s := this(c, "segment")
		in := c.Argument(0)
		str := r.toString(in)
		d := &segData{s: s, input: r.rt.ToValue(str), u16: utf16.Encode([]rune(str))}
		d.segs = s.split(str)
		return r.wrap(d, segsProto)
	})
	r.method(proto, "resolvedOptions", 0, func(c goja.FunctionCall) goja.Value {
		s := this(c, "resolvedOptions")
		o := r.rt.NewObject()
		r.cdp(o, "locale", s.locale)
		r.cdp(o, "granularity", s.granularity)
		return o
	})
}

type segIter struct {
	d any
	i int
}

func (r *realm) iteratorPrototype() *goja.Object {
	v, err := r.rt.RunString("Object.getPrototypeOf(Object.getPrototypeOf([][Symbol.iterator]()))")
	if err != nil {
		return nil
	}
	o, _ := v.(*goja.Object)
	return o
}

func (r *realm) newSegmenter(locales, options goja.Value) *segmenter {
	req := r.canonicalizeLocaleList(locales)
	opts := r.getOptionsObject(options)
	r.getString(opts, "localeMatcher", []string{"lookup", "best fit"}, "best fit")
	res := r.resolveLocale(req, nil, nil)
	s := &segmenter{locale: res.locale}
	s.granularity = r.getString(opts, "granularity", []string{"grapheme", "word", "sentence"}, "grapheme")
	return s
}

// split segments str with UAX #29 (rivo/uniseg) and converts offsets to
// UTF-16 units.
func (s *segmenter) split(str string) []segment {
	var out []segment
	pos16 := 0
	add := func(piece string, wordLike bool) {
		n := 0
		for _, r := range piece {
			n += utf16.RuneLen(r)
		}
		out = append(out, segment{pos16, pos16 + n, wordLike})
		pos16 += n
	}
	rest := str
	state := -1
	for len(rest) > 0 {
		var piece string
		switch s.granularity {
		case "word":
			piece, rest, state = uniseg.FirstWordInString(rest, state)
			add(piece, isWordLike(piece))
		case "sentence":
			piece, rest, state = uniseg.FirstSentenceInString(rest, state)
			add(piece, false)
		default:
			piece, rest, _, state = uniseg.FirstGraphemeClusterInString(rest, state)
			add(piece, false)
		}
	}
	return out
}

func isWordLike(s string) bool {
	r, _ := utf8.DecodeRuneInString(s)
	return unicode.IsLetter(r) || unicode.IsNumber(r) || unicode.Is(unicode.Mn, r)
}
