package encoding

import (
	"bytes"
	"errors"
	"strings"
	"sync"
	"unicode/utf8"

	xenc "golang.org/x/text/encoding"
	"golang.org/x/text/encoding/charmap"
	"golang.org/x/text/encoding/htmlindex"
	"golang.org/x/text/encoding/simplifiedchinese"
	"golang.org/x/text/transform"
)

// ErrInvalid is what a fatal Decoder returns for malformed input (TextDecoder
// turns it into a TypeError).
var ErrInvalid = errors.New("The encoded data was not valid")

// ErrLabel is what NewDecoder returns for a label that names no encoding
// TextDecoder supports (TextDecoder turns it into a RangeError).
var ErrLabel = errors.New("unknown or unsupported encoding label")

var replacement = []byte("\uFFFD")

type kind uint8

const (
	kindUTF8 kind = iota
	kindUTF16LE
	kindUTF16BE
	kindSingleByte
	kindLegacy
)

// Decoder is the streaming decoder behind TextDecoder (WHATWG Encoding
// §7.2): it keeps an incomplete sequence between calls with stream set,
// strips a leading byte order mark once per stream unless told not to, and
// either replaces malformed input with U+FFFD or, when fatal, fails with
// ErrInvalid. UTF-8 and UTF-16 are decoded natively; the legacy encodings
// by golang.org/x/text. TextDecoderStream uses it too. A Decoder is not
// safe for concurrent use.
type Decoder struct {
	name             string
	kind             kind
	fatal, ignoreBOM bool
	bomSeen          bool

	pending []byte // bytes of an incomplete sequence kept by a stream:true call
	legacy  xenc.Encoding
	tr      transform.Transformer // the legacy decoder of the current stream
	table   *[128]rune            // bytes 0x80–0xFF of a single-byte encoding
}

// NewUTF8Decoder returns a UTF-8 Decoder (new TextDecoder("utf-8", {fatal,
// ignoreBOM})).
func NewUTF8Decoder(fatal, ignoreBOM bool) *Decoder {
	return &Decoder{name: "utf-8", kind: kindUTF8, fatal: fatal, ignoreBOM: ignoreBOM}
}

// NewDecoder returns a Decoder for the encoding label names ("utf-8",
// "latin1", "Shift_JIS", " utf-16 " …, per the Encoding standard's "get an
// encoding": ASCII whitespace trimmed, ASCII case-insensitive), or ErrLabel
// for an unknown label and the replacement encoding.
func NewDecoder(label string, fatal, ignoreBOM bool) (*Decoder, error) {
	name, enc, ok := lookup(label)
	if !ok || name == "replacement" {
		return nil, ErrLabel
	}
	d := &Decoder{name: name, fatal: fatal, ignoreBOM: ignoreBOM}
	switch name {
	case "utf-8":
		d.kind = kindUTF8
	case "utf-16le":
		d.kind = kindUTF16LE
	case "utf-16be":
		d.kind = kindUTF16BE
	case "gbk": // the GBK decoder is gb18030's (four-byte sequences included)
		d.kind, d.legacy = kindLegacy, simplifiedchinese.GB18030
	default:
		if cm, ok := enc.(*charmap.Charmap); ok {
			d.kind, d.table = kindSingleByte, singleByteTable(name, cm)
			break
		}
		d.kind, d.legacy = kindLegacy, enc
	}
	return d, nil
}

var singleByte sync.Map // name → *[128]rune

// singleByteTable returns the upper half of a single-byte encoding's
// index. x/text's tables follow the Encoding standard's indexes except
// that they leave 0x80–0x9F undefined where the standard maps such a byte
// to the C1 control of the same value (windows-1252's 0x81, ISO-8859-2's
// 0x80–0x9F …); utf8.RuneError marks the bytes the standard leaves
// undefined.
func singleByteTable(name string, cm *charmap.Charmap) *[128]rune {
	if t, ok := singleByte.Load(name); ok {
		return t.(*[128]rune)
	}
	t := new([128]rune)
	for b := 0x80; b <= 0xFF; b++ {
		r := cm.DecodeByte(byte(b))
		if r == utf8.RuneError && b <= 0x9F {
			r = rune(b)
		}
		t[b-0x80] = r
	}
	singleByte.Store(name, t)
	return t
}

// Encoding is the encoding's name ("utf-8", "windows-1252", "shift_jis"):
// TextDecoder's encoding attribute.
func (d *Decoder) Encoding() string { return d.name }

// Fatal and IgnoreBOM report the options the Decoder was made with.
func (d *Decoder) Fatal() bool     { return d.fatal }
func (d *Decoder) IgnoreBOM() bool { return d.ignoreBOM }

// Label returns the name of the encoding label names (see NewDecoder), if
// it names one ("replacement" for the labels of the replacement encoding).
func Label(label string) (name string, ok bool) {
	name, _, ok = lookup(label)
	return name, ok
}

func lookup(label string) (string, xenc.Encoding, bool) {
	label = strings.Trim(label, "\t\n\f\r ")
	for i := 0; i < len(label); i++ {
		if label[i] >= utf8.RuneSelf || label[i] == '\v' {
			return "", nil, false // Encoding's labels are ASCII; htmlindex would trim \v and U+0085 too
		}
	}
	enc, err := htmlindex.Get(label)
	if err != nil {
		return "", nil, false
	}
	name, err := htmlindex.Name(enc)
	if err != nil {
		return "", nil, false
	}
	return name, enc, true
}

// Decode decodes b, continuing the stream of earlier calls made with
// stream set. With stream set, an incomplete sequence at the end of b is
// kept for the next call; without it the stream ends here (an incomplete
// sequence is malformed) and the Decoder starts afresh on the next call.
// After ErrInvalid the Decoder starts afresh too.
func (d *Decoder) Decode(b []byte, stream bool) (string, error) {
	if len(d.pending) > 0 {
		b = append(d.pending, b...)
		d.pending = nil
	}
	var s string
	var err error
	switch d.kind {
	case kindUTF8:
		s, err = d.utf8(b, stream)
	case kindUTF16LE, kindUTF16BE:
		s, err = d.utf16(b, stream)
	case kindSingleByte:
		s, err = d.singleByte(b)
	default:
		s, err = d.legacyDecode(b, stream)
	}
	if err != nil {
		d.reset()
		return "", err
	}
	if !d.bomSeen && len(s) > 0 {
		d.bomSeen = true
		if !d.ignoreBOM && d.kind <= kindUTF16BE && strings.HasPrefix(s, "\uFEFF") {
			s = s[len("\uFEFF"):]
		}
	}
	if !stream {
		d.reset()
	}
	return s, nil
}

func (d *Decoder) reset() {
	d.bomSeen = false
	d.pending = nil
	d.tr = nil
}

// keep saves tail as the pending incomplete sequence (copied: b may be the
// caller's buffer, which JS can change before the next call).
func (d *Decoder) keep(tail []byte) {
	d.pending = append(make([]byte, 0, 4), tail...)
}

// utf8 decodes b per the Encoding standard's UTF-8 decoder: each maximal
// ill-formed subsequence becomes one U+FFFD.
func (d *Decoder) utf8(b []byte, stream bool) (string, error) {
	if stream {
		if n := incompleteUTF8(b); n > 0 {
			d.keep(b[len(b)-n:])
			b = b[:len(b)-n]
		}
	}
	if utf8.Valid(b) {
		return string(b), nil
	}
	if d.fatal {
		return "", ErrInvalid
	}
	return replaceUTF8(b), nil
}

// incompleteUTF8 returns the length of the sequence b ends with if it is
// the valid start of a UTF-8 sequence still missing bytes, else 0.
func incompleteUTF8(b []byte) int {
	for k := 1; k <= 3 && k <= len(b); k++ {
		c := b[len(b)-k]
		if c < 0x80 {
			return 0
		}
		if c < 0xC0 {
			continue // a continuation byte: look further back
		}
		need, lo, hi := utf8Lead(c)
		if need == 0 || k > need { // starts no sequence, or a complete one
			return 0
		}
		// the bytes after the lead must fit the boundaries
		for j := len(b) - k + 1; j < len(b); j++ {
			if b[j] < lo || b[j] > hi {
				return 0
			}
			lo, hi = 0x80, 0xBF
		}
		return k
	}
	return 0
}

// utf8Lead returns how many continuation bytes lead byte c needs (0 for a
// byte that starts no sequence) and the bounds of the first one.
func utf8Lead(c byte) (need int, lo, hi byte) {
	switch {
	case c >= 0xC2 && c <= 0xDF:
		return 1, 0x80, 0xBF
	case c == 0xE0:
		return 2, 0xA0, 0xBF
	case c == 0xED:
		return 2, 0x80, 0x9F
	case c >= 0xE1 && c <= 0xEF:
		return 2, 0x80, 0xBF
	case c == 0xF0:
		return 3, 0x90, 0xBF
	case c >= 0xF1 && c <= 0xF3:
		return 3, 0x80, 0xBF
	case c == 0xF4:
		return 3, 0x80, 0x8F
	}
	return 0, 0, 0
}

// replaceUTF8 is the Encoding standard's UTF-8 decoder with replacement,
// for input known to be malformed somewhere.
func replaceUTF8(b []byte) string {
	out := make([]byte, 0, len(b)+8)
	for i := 0; i < len(b); {
		c := b[i]
		if c < utf8.RuneSelf {
			out = append(out, c)
			i++
			continue
		}
		if r, n := utf8.DecodeRune(b[i:]); r != utf8.RuneError || n > 1 {
			out = append(out, b[i:i+n]...)
			i += n
			continue
		}
		// malformed: skip the lead and as many continuation bytes as stay
		// within the boundaries, then emit one U+FFFD
		need, lo, hi := utf8Lead(c)
		i++
		for ; need > 0 && i < len(b) && b[i] >= lo && b[i] <= hi; need-- {
			i++
			lo, hi = 0x80, 0xBF
		}
		out = append(out, "\uFFFD"...)
	}
	return string(out)
}

// utf16 is the Encoding standard's shared UTF-16 decoder.
func (d *Decoder) utf16(b []byte, stream bool) (string, error) {
	be := d.kind == kindUTF16BE
	n := len(b) &^ 1
	if stream {
		end := n
		if end >= 2 { // a lead surrogate at the end waits for its trail
			u := unit(b[end-2:], be)
			if u >= 0xD800 && u <= 0xDBFF {
				end -= 2
			}
		}
		if end < len(b) {
			d.keep(b[end:])
		}
		b, n = b[:end], end
	}
	out := make([]byte, 0, n+n/2)
	for i := 0; i < n; i += 2 {
		u := rune(unit(b[i:], be))
		switch {
		case u >= 0xD800 && u <= 0xDBFF:
			if i+3 < n {
				if t := rune(unit(b[i+2:], be)); t >= 0xDC00 && t <= 0xDFFF {
					out = utf8.AppendRune(out, 0x10000+(u-0xD800)<<10+(t-0xDC00))
					i += 2
					continue
				}
			}
			fallthrough
		case u >= 0xDC00 && u <= 0xDFFF:
			if d.fatal {
				return "", ErrInvalid
			}
			out = append(out, "\uFFFD"...)
		default:
			out = utf8.AppendRune(out, u)
		}
	}
	if n < len(b) { // an odd byte at the end of the stream
		if d.fatal {
			return "", ErrInvalid
		}
		out = append(out, "\uFFFD"...)
	}
	return string(out), nil
}

func unit(b []byte, be bool) uint16 {
	if be {
		return uint16(b[0])<<8 | uint16(b[1])
	}
	return uint16(b[1])<<8 | uint16(b[0])
}

func (d *Decoder) singleByte(b []byte) (string, error) {
	out := make([]byte, 0, len(b)+len(b)/2)
	for _, c := range b {
		if c < utf8.RuneSelf {
			out = append(out, c)
			continue
		}
		r := d.table[c-0x80]
		if r == utf8.RuneError && d.fatal {
			return "", ErrInvalid
		}
		out = utf8.AppendRune(out, r)
	}
	return string(out), nil
}

// legacyDecode runs x/text's decoder of a legacy encoding. Those decoders
// write U+FFFD for malformed input and have no fatal mode, so fatal treats
// a U+FFFD in the output as an error (only gb18030 can decode to U+FFFD
// from well-formed input, a four-byte sequence nobody writes).
func (d *Decoder) legacyDecode(b []byte, stream bool) (string, error) {
	if d.tr == nil {
		d.tr = d.legacy.NewDecoder()
	}
	out := make([]byte, 0, len(b)*3/2+8)
	src := b
	for {
		dst := out[len(out):cap(out)]
		nDst, nSrc, err := d.tr.Transform(dst, src, !stream)
		out = out[:len(out)+nDst]
		src = src[nSrc:]
		switch err {
		case nil:
		case transform.ErrShortDst:
			out = append(out, make([]byte, len(src)*3+16)...)[:len(out)]
			continue
		case transform.ErrShortSrc:
			if stream {
				d.keep(src)
				src = nil
			}
		default:
			return "", err
		}
		if len(src) == 0 || err == transform.ErrShortSrc {
			break
		}
	}
	if d.fatal && bytes.Contains(out, replacement) {
		return "", ErrInvalid
	}
	return string(out), nil
}
