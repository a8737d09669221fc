package fetch

import (
	"bytes"
	"crypto/rand"
	"errors"
	"math/big"
	"mime"
	"strings"
	"time"

	"github.com/dop251/goja"

	"bext/web/webidl"
)

// formData is the Go state of a FormData object: its entry list. A file
// entry keeps its JS File, so get() returns the same object every time.
type formData struct {
	entries []fdEntry
}

type fdEntry struct {
	name string
	str  string
	file *goja.Object // nil for a string entry
}

func (s *state) installFormData() {
	r, rt := s.r, s.rt
	s.formData = r.NewClass("FormData", 0, nil, func(call goja.ConstructorCall) *goja.Object {
		if !goja.IsUndefined(call.Argument(0)) {
			s.typeError("FormData constructor: Argument 1 could not be converted to: undefined.")
		}
		r.SetSlot(call.This, &formData{})
		return nil
	})
	c := s.formData
	this := func(v goja.Value) *formData { return webidl.This[*formData](r, v) }
	need := func(call goja.FunctionCall, op string, n int) {
		if len(call.Arguments) < n {
			s.typeError("Failed to execute '%s' on 'FormData': %d argument%s required, but only %d present.", op, n, plural(n), len(call.Arguments))
		}
	}
	entry := func(call goja.FunctionCall, op string) fdEntry {
		need(call, op, 2)
		name := r.String(call.Argument(0))
		v := call.Argument(1)
		if _, ok := webidl.Slot[*blob](v); ok {
			var filename *string
			if len(call.Arguments) > 2 {
				f := r.String(call.Argument(2))
				filename = &f
			}
			return fdEntry{name: name, file: s.asFile(v.(*goja.Object), filename)}
		}
		if len(call.Arguments) > 2 {
			s.typeError("Failed to execute '%s' on 'FormData': parameter 2 is not of type 'Blob'.", op)
		}
		return fdEntry{name: name, str: r.String(v)}
	}
	value := func(e fdEntry) goja.Value {
		if e.file != nil {
			return e.file
		}
		return rt.ToValue(e.str)
	}
	c.Method("append", 2, func(call goja.FunctionCall) goja.Value {
		f := this(call.This)
		f.entries = append(f.entries, entry(call, "append"))
		return goja.Undefined()
	})
	c.Method("delete", 1, func(call goja.FunctionCall) goja.Value {
		f := this(call.This)
		need(call, "delete", 1)
		name := r.String(call.Argument(0))
		f.entries = deleteEntries(f.entries, name)
		return goja.Undefined()
	})
	c.Method("get", 1, func(call goja.FunctionCall) goja.Value {
		f := this(call.This)
		need(call, "get", 1)
		name := r.String(call.Argument(0))
		for _, e := range f.entries {
			if e.name == name {
				return value(e)
			}
		}
		return goja.Null()
	})
	c.Method("getAll", 1, func(call goja.FunctionCall) goja.Value {
		f := this(call.This)
		need(call, "getAll", 1)
		name := r.String(call.Argument(0))
		var out []any
		for _, e := range f.entries {
			if e.name == name {
				out = append(out, value(e))
			}
		}
		return rt.NewArray(out...)
	})
	c.Method("has", 1, func(call goja.FunctionCall) goja.Value {
		f := this(call.This)
		need(call, "has", 1)
		name := r.String(call.Argument(0))
		for _, e := range f.entries {
			if e.name == name {
				return s.rt.ToValue(true)
			}
		}
		return s.rt.ToValue(false)
	})
	c.Method("set", 2, func(call goja.FunctionCall) goja.Value {
		f := this(call.This)
		e := entry(call, "set")
		for i, old := range f.entries {
			if old.name == e.name {
				f.entries[i] = e
				f.entries = append(f.entries[:i+1], deleteEntries(f.entries[i+1:], e.name)...)
				return goja.Undefined()
			}
		}
		f.entries = append(f.entries, e)
		return goja.Undefined()
	})
	c.PairIterable(func(this goja.Value) func(i int) (k, v goja.Value, ok bool) {
		f := webidl.This[*formData](r, this)
		return func(i int) (goja.Value, goja.Value, bool) {
			if i >= len(f.entries) {
				return nil, nil, false
			}
			e := f.entries[i]
			return rt.ToValue(e.name), value(e), true
		}
	})
}

func deleteEntries(es []fdEntry, name string) []fdEntry {
	out := es[:0]
	for _, e := range es {
		if e.name != name {
			out = append(out, e)
		}
	}
	clear(es[len(out):])
	return out
}

// asFile is the entry value of a Blob (FormData's "create an entry"): a
// Blob that is not a File becomes a File named "blob"; a filename makes a
// new File of that name; otherwise the File itself.
func (s *state) asFile(v *goja.Object, filename *string) *goja.Object {
	b, _ := webidl.Slot[*blob](v)
	switch {
	case !b.file:
		name := "blob"
		if filename != nil {
			name = *filename
		}
		return s.newFile(b.data, name, b.typ, time.Now().UnixMilli())
	case filename != nil:
		return s.newFile(b.data, *filename, b.typ, b.lastModified)
	}
	return v
}

// newFormData makes a FormData holding entries.
func (s *state) newFormData(entries []fdEntry) *goja.Object {
	return s.formData.New(&formData{entries: entries})
}

// multipart/form-data encoding (HTML §4.10.21.8), as undici writes it.

// boundary returns a new boundary string.
func boundary() string {
	n, _ := rand.Int(rand.Reader, big.NewInt(1e12))
	return "----formdata-bext-" + leftPad(n.String(), 12)
}

func leftPad(s string, n int) string {
	for len(s) < n {
		s = "0" + s
	}
	return s
}

var fdNameEscaper = strings.NewReplacer("\n", "%0A", "\r", "%0D", "\"", "%22")

// crlf normalises lone CR and LF to CRLF.
func crlf(s string) string {
	if strings.IndexByte(s, '\n') < 0 && strings.IndexByte(s, '\r') < 0 {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		switch c := s[i]; c {
		case '\r':
			b.WriteString("\r\n")
			if i+1 < len(s) && s[i+1] == '\n' {
				i++
			}
		case '\n':
			b.WriteString("\r\n")
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}

// encodeMultipart serialises entries with the given boundary.
func encodeMultipart(entries []fdEntry, bnd string) []byte {
	var b bytes.Buffer
	for _, e := range entries {
		b.WriteString("--" + bnd + "\r\nContent-Disposition: form-data; name=\"")
		b.WriteString(fdNameEscaper.Replace(crlf(e.name)))
		if e.file == nil {
			b.WriteString("\"\r\n\r\n")
			b.WriteString(crlf(e.str))
			b.WriteString("\r\n")
			continue
		}
		f, _ := webidl.Slot[*blob](e.file)
		b.WriteString("\"; filename=\"")
		b.WriteString(fdNameEscaper.Replace(f.name))
		typ := f.typ
		if typ == "" {
			typ = "application/octet-stream"
		}
		b.WriteString("\"\r\nContent-Type: " + typ + "\r\n\r\n")
		b.Write(f.data)
		b.WriteString("\r\n")
	}
	b.WriteString("--" + bnd + "--\r\n")
	return b.Bytes()
}

var fdNameUnescaper = strings.NewReplacer("%0A", "\n", "%0D", "\r", "%22", "\"")

var errBadMultipart = errors.New("Failed to parse body as FormData.")

// formPart is one part of a multipart/form-data body.
type formPart struct {
	name, value string // value: a string part's text
	file        bool
	filename    string
	typ         string
	data        []byte // a file part's bytes
}

// parseMultipart parses a multipart/form-data body (RFC 7578). It is
// written out here rather than taken from mime/multipart, whose header
// reader refuses control characters that FormData names and file names
// may hold (the encoder writes them as they are, as undici's does).
func parseMultipart(data []byte, bnd string) ([]formPart, error) {
	delim := []byte("--" + bnd)
	var pos int
	switch {
	case bytes.HasPrefix(data, delim):
		pos = len(delim)
	default: // a preamble: the first delimiter starts a line
		i := bytes.Index(data, append([]byte("\r\n"), delim...))
		if i < 0 {
			return nil, errBadMultipart
		}
		pos = i + 2 + len(delim)
	}
	closeDelim := append([]byte("\r\n"), delim...)
	var out []formPart
	for {
		rest := data[pos:]
		if bytes.HasPrefix(rest, []byte("--")) {
			return out, nil
		}
		rest = bytes.TrimLeft(rest, " \t") // transport padding
		if !bytes.HasPrefix(rest, []byte("\r\n")) {
			return nil, errBadMultipart
		}
		rest = rest[2:]
		var head []byte
		if bytes.HasPrefix(rest, []byte("\r\n")) {
			rest = rest[2:]
		} else {
			i := bytes.Index(rest, []byte("\r\n\r\n"))
			if i < 0 {
				return nil, errBadMultipart
			}
			head, rest = rest[:i], rest[i+4:]
		}
		i := bytes.Index(rest, closeDelim)
		if i < 0 {
			return nil, errBadMultipart
		}
		body := rest[:i]
		pos = len(data) - len(rest) + i + len(closeDelim)
		part, err := formPartOf(head, body)
		if err != nil {
			return nil, err
		}
		out = append(out, part)
	}
}

// formPartOf reads a part's headers (Content-Disposition, Content-Type).
func formPartOf(head, body []byte) (formPart, error) {
	var disposition, ctype string
	for _, line := range bytes.Split(head, []byte("\r\n")) {
		k, v, ok := bytes.Cut(line, []byte(":"))
		if !ok {
			return formPart{}, errBadMultipart
		}
		switch lower(strings.TrimSpace(string(k))) {
		case "content-disposition":
			disposition = decodeUTF8(bytes.TrimSpace(v))
		case "content-type":
			ctype = string(bytes.TrimSpace(v))
		}
	}
	disp, params, err := mime.ParseMediaType(disposition)
	if err != nil {
		disp, params = parseDisposition(disposition)
	}
	name, ok := params["name"]
	if disp != "form-data" || !ok {
		return formPart{}, errBadMultipart
	}
	name = fdNameUnescaper.Replace(name)
	filename, isFile := params["filename"]
	if !isFile {
		return formPart{name: name, value: decodeUTF8(body)}, nil
	}
	typ := "text/plain"
	if ctype != "" {
		typ = blobType(ctype)
	}
	return formPart{name: name, file: true, filename: fdNameUnescaper.Replace(filename), typ: typ, data: bytes.Clone(body)}, nil
}

// parseDisposition is a lenient Content-Disposition parser for what
// mime.ParseMediaType refuses (control characters in a quoted name, as a
// FormData entry name may have): parameters split at ';' outside quotes,
// quoted values taken as they are.
func parseDisposition(v string) (string, map[string]string) {
	var parts []string
	start, inQ := 0, false
	for i := 0; i < len(v); i++ {
		switch v[i] {
		case '"':
			inQ = !inQ
		case ';':
			if !inQ {
				parts = append(parts, v[start:i])
				start = i + 1
			}
		}
	}
	parts = append(parts, v[start:])
	params := map[string]string{}
	for _, p := range parts[1:] {
		k, val, ok := strings.Cut(p, "=")
		if !ok {
			continue
		}
		k = lower(strings.TrimSpace(k))
		val = strings.TrimSpace(val)
		if len(val) >= 2 && val[0] == '"' && val[len(val)-1] == '"' {
			val = val[1 : len(val)-1]
		}
		if _, dup := params[k]; !dup {
			params[k] = val
		}
	}
	return lower(strings.TrimSpace(parts[0])), params
}

// formEntries makes the entry list of parsed parts (files become Files).
func (s *state) formEntries(parts []formPart) []fdEntry {
	out := make([]fdEntry, len(parts))
	now := time.Now().UnixMilli()
	for i, p := range parts {
		out[i] = fdEntry{name: p.name, str: p.value}
		if p.file {
			out[i].file = s.newFile(p.data, p.filename, p.typ, now)
		}
	}
	return out
}

// parseURLEncoded is the application/x-www-form-urlencoded parser.
func parseURLEncoded(data []byte) []fdEntry {
	var out []fdEntry
	for _, seq := range bytes.Split(data, []byte{'&'}) {
		if len(seq) == 0 {
			continue
		}
		name, value, _ := bytes.Cut(seq, []byte{'='})
		out = append(out, fdEntry{name: percentDecodePlus(name), str: percentDecodePlus(value)})
	}
	return out
}

func unhex(c byte) (byte, bool) {
	switch {
	case '0' <= c && c <= '9':
		return c - '0', true
	case 'a' <= c && c <= 'f':
		return c - 'a' + 10, true
	case 'A' <= c && c <= 'F':
		return c - 'A' + 10, true
	}
	return 0, false
}

// percentDecodePlus replaces '+' with a space, percent-decodes and decodes
// the bytes as UTF-8 (without BOM handling).
func percentDecodePlus(b []byte) string {
	if bytes.IndexByte(b, '+') < 0 && bytes.IndexByte(b, '%') < 0 {
		return decodeUTF8NoBOM(b)
	}
	out := make([]byte, 0, len(b))
	for i := 0; i < len(b); i++ {
		c := b[i]
		switch {
		case c == '+':
			out = append(out, ' ')
		case c == '%' && i+2 < len(b):
			h, ok1 := unhex(b[i+1])
			l, ok2 := unhex(b[i+2])
			if ok1 && ok2 {
				out = append(out, h<<4|l)
				i += 2
			} else {
				out = append(out, c)
			}
		default:
			out = append(out, c)
		}
	}
	return decodeUTF8NoBOM(out)
}

func decodeUTF8NoBOM(b []byte) string {
	if len(b) >= 3 && b[0] == 0xEF && b[1] == 0xBB && b[2] == 0xBF {
		return "\uFEFF" + decodeUTF8(b[3:])
	}
	return decodeUTF8(b)
}
