package encoding

import (
	"errors"
	"testing"
)

func TestDecoderUTF8(t *testing.T) {
	cases := []struct {
		name string
		in   []byte
		want string
	}{
		{"ascii", []byte("hello"), "hello"},
		{"bom stripped", []byte("\xEF\xBB\xBFhi"), "hi"},
		{"lone continuation", []byte{0x61, 0x80, 0x62}, "a\uFFFDb"},
		{"truncated 4-byte is one U+FFFD", []byte{0xF0, 0x9F, 0x98, 0x61}, "\uFFFDa"},
		{"surrogate encoded", []byte{0xED, 0xA0, 0x80}, "\uFFFD\uFFFD\uFFFD"},
		{"overlong", []byte{0xC0, 0xAF}, "\uFFFD\uFFFD"},
		{"E0 bounds", []byte{0xE0, 0x80, 0x80}, "\uFFFD\uFFFD\uFFFD"},
		{"F4 over max", []byte{0xF4, 0x90, 0x80, 0x80}, "\uFFFD\uFFFD\uFFFD\uFFFD"},
		{"incomplete at end", []byte{0x61, 0xE2, 0x82}, "a\uFFFD"},
		{"FF", []byte{0xFF}, "\uFFFD"},
	}
	for _, c := range cases {
		got, err := NewUTF8Decoder(false, false).Decode(c.in, false)
		if err != nil || got != c.want {
			t.Errorf("%s: got %q, %v; want %q", c.name, got, err, c.want)
		}
		_, err = NewUTF8Decoder(true, false).Decode(c.in, false)
		if valid := c.want == string(c.in) || c.name == "bom stripped"; valid != (err == nil) {
			t.Errorf("%s fatal: err %v", c.name, err)
		}
	}
}

func TestDecoderStreams(t *testing.T) {
	full := "a€😀é\uFFFDz"
	for _, label := range []string{"utf-8", "utf-16le", "utf-16be", "shift_jis", "gb18030", "big5", "euc-kr"} {
		d, err := NewDecoder(label, true, false)
		if err != nil {
			t.Fatal(label, err)
		}
		var in []byte
		switch label {
		case "utf-8":
			in = []byte(full)
		case "utf-16le", "utf-16be":
			for _, r := range full {
				var u []uint16
				if r > 0xFFFF {
					r -= 0x10000
					u = []uint16{uint16(0xD800 + r>>10), uint16(0xDC00 + r&0x3FF)}
				} else {
					u = []uint16{uint16(r)}
				}
				for _, x := range u {
					if label == "utf-16le" {
						in = append(in, byte(x), byte(x>>8))
					} else {
						in = append(in, byte(x>>8), byte(x))
					}
				}
			}
		default:
			in = []byte{0x61, 0x7A} // "az": the legacy encodings stream byte by byte below
			full = "az"
		}
		// feed one byte at a time: the result is the same as in one call
		out := ""
		for i := range in {
			s, err := d.Decode(in[i:i+1], true)
			if err != nil {
				t.Fatalf("%s: byte %d: %v", label, i, err)
			}
			out += s
		}
		s, err := d.Decode(nil, false)
		if err != nil {
			t.Fatal(label, err)
		}
		if out+s != full {
			t.Errorf("%s: streamed %q, want %q", label, out+s, full)
		}
		full = "a€😀é\uFFFDz"
	}
}

func TestDecoderLegacy(t *testing.T) {
	cases := []struct{ label, in, want string }{
		{"shift_jis", "\x82\xa0", "あ"},
		{"euc-jp", "\xa4\xa2", "あ"},
		{"gbk", "\x81\x30\x81\x30", "\u0080"}, // GBK decodes gb18030's four-byte sequences
		{"big5", "\xa4\x40", "一"},
		{"windows-1252", "\x80\x81", "€\u0081"},
		{"latin1", "\xe9", "é"},
		{"koi8-r", "\xc1", "а"},
		{"x-user-defined", "\x80", "\uF780"},
		{"iso-2022-jp", "\x1b$B$\"\x1b(B", "あ"},
	}
	for _, c := range cases {
		d, err := NewDecoder(c.label, false, false)
		if err != nil {
			t.Fatal(c.label, err)
		}
		got, err := d.Decode([]byte(c.in), false)
		if err != nil || got != c.want {
			t.Errorf("%s: got %q, %v; want %q", c.label, got, err, c.want)
		}
	}
}

func TestLabels(t *testing.T) {
	for label, want := range map[string]string{
		"utf8": "utf-8", " UTF-8\n": "utf-8", "unicode-1-1-utf-8": "utf-8", "utf-16": "utf-16le",
		"unicodefffe": "utf-16be", "ascii": "windows-1252", "latin1": "windows-1252", "sjis": "shift_jis",
		"x-gbk": "gbk", "csiso2022kr": "replacement", "\fkoi8\t": "koi8-r", "mac": "macintosh",
	} {
		if got, ok := Label(label); !ok || got != want {
			t.Errorf("Label(%q) = %q, %v; want %q", label, got, ok, want)
		}
	}
	for _, bad := range []string{"\vutf-8", "utf-8\u00a0", "\u0085utf-8", "utf-7", "", "replacement "} {
		if bad == "replacement " {
			if _, err := NewDecoder(bad, false, false); !errors.Is(err, ErrLabel) {
				t.Errorf("NewDecoder(%q): %v, want ErrLabel", bad, err)
			}
			continue
		}
		if got, ok := Label(bad); ok {
			t.Errorf("Label(%q) = %q, want none", bad, got)
		}
	}
}

func TestDecodeBase64(t *testing.T) {
	for in, want := range map[string]string{
		"": "", "YQ": "a", "YQ==": "a", " Y Q = = ": "a", "YR": "a", "YWI": "ab", "YWJj": "abc",
		"\tYW\nJj\f\r": "abc",
	} {
		got, ok := DecodeBase64(in)
		if !ok || string(got) != want {
			t.Errorf("DecodeBase64(%q) = %q, %v; want %q", in, got, ok, want)
		}
	}
	for _, bad := range []string{"Y", "YQ=", "YQ===", "Y=Q=", "YQ\v", "YQ=a", "abcde", "ab-c", "=", "YQ==="} {
		if got, ok := DecodeBase64(bad); ok {
			t.Errorf("DecodeBase64(%q) = %q, want failure", bad, got)
		}
	}
}
