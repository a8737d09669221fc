package fetch

import (
	"testing"
	"unicode/utf8"

	"bext/web/encoding"
)

// FuzzDecodeUTF8 holds fetch's UTF-8 decoding (text(), json()) to the
// Encoding Standard's decoder in web/encoding.
func FuzzDecodeUTF8(f *testing.F) {
	for _, s := range []string{"", "abc", "\xef\xbb\xbfA", "A\xe2\x82B", "\xff", "\xf0\x9f\x98", "\xed\xa0\x80", "\xc0\x80", "\xf4\x90\x80\x80", "é€😀"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		want, err := encoding.NewUTF8Decoder(false, false).Decode(b, false)
		if err != nil {
			t.Fatal(err)
		}
		if got := decodeUTF8(b); got != want {
			t.Fatalf("decodeUTF8(%q) = %q, want %q", b, got, want)
		}
		if got := textOf(append([]byte(nil), b...)); got != want {
			t.Fatalf("textOf(%q) = %q, want %q", b, got, want)
		}
	})
}

// FuzzParseMIME: no panic, and a parsed type serializes to a string that
// parses to the same type.
func FuzzParseMIME(f *testing.F) {
	for _, s := range []string{"text/html", "Text/HTML; Charset=\"UTF-8\"", "a/b;c=\"d\\\"e\";f", "multipart/form-data; boundary=----x", "x", "/", "a/b;=c;d=;e=\"\"", "a/b ; c = d"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		m, ok := parseMIME(s)
		if !ok {
			return
		}
		out := m.serialize()
		m2, ok := parseMIME(out)
		if !ok || m2.serialize() != out {
			t.Fatalf("%q serialized to %q, which parses to %q (%v)", s, out, m2.serialize(), ok)
		}
	})
}

// FuzzFormBodies: the form parsers never panic, and what the multipart
// encoder writes parses back to the same entries.
func FuzzFormBodies(f *testing.F) {
	f.Add([]byte("--b\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\nx\r\n--b--\r\n"), "b", "n", "v")
	f.Add([]byte("a=1&b=%zz+c&&=e"), "", "a\r\nb\"", "x\ny")
	f.Fuzz(func(t *testing.T, data []byte, bnd, name, value string) {
		parseURLEncoded(data)
		if bnd != "" {
			_, _ = parseMultipart(data, bnd)
		}
		if !utf8.ValidString(name) || !utf8.ValidString(value) {
			return
		}
		enc := encodeMultipart([]fdEntry{{name: name, str: value}}, "----formdata-bext-000000000001")
		parts, err := parseMultipart(enc, "----formdata-bext-000000000001")
		if err != nil || len(parts) != 1 {
			t.Fatalf("%q=%q: %v %d parts", name, value, err, len(parts))
		}
		if parts[0].name != crlf(name) || parts[0].value != crlf(value) {
			t.Fatalf("%q=%q came back as %q=%q", name, value, parts[0].name, parts[0].value)
		}
	})
}
