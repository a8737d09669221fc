package encoding_test

import (
	"testing"

	"bext/web/fetch"
	"bext/web/internal/webtest"
)

// Edge cases of TextDecoder a streaming renderer or a fetch body would hit
// (moved here with the implementation from the engine).
func TestTextDecoderEdgeCases(t *testing.T) {
	w := webtest.New(t, "", fetch.Options{})
	cases := map[string]string{
		// "é" split across two stream:true calls decodes once both halves arrived
		`const d = new TextDecoder(); return d.decode(new Uint8Array([0x61, 0xC3]), {stream: true}) + "|" + d.decode(new Uint8Array([0xA9]))`: "a|é",
		`return new TextDecoder().decode(new Uint8Array([0xEF, 0xBB, 0xBF, 0x68, 0x69]))`:                                                     "hi",
		`return String(new TextDecoder("utf-8", {ignoreBOM: true}).decode(new Uint8Array([0xEF, 0xBB, 0xBF])).length)`:                        "1",
		`return new TextDecoder().decode(new Uint8Array([0x61, 0xFF, 0x62]))`:                                                                 "a\uFFFDb",
		`try { new TextDecoder("utf-8", {fatal: true}).decode(new Uint8Array([0xFF])); return "no" } catch (e) { return e.name }`:             "TypeError",
		`return new TextDecoder().decode(new Uint8Array([0x78, 0x61, 0x62, 0x79]).subarray(1, 3))`:                                            "ab",
		`return new TextDecoder().decode(new DataView(new Uint8Array([0x6F, 0x6B]).buffer))`:                                                  "ok",
		`return new TextDecoder().decode()`:                                                                                      "",
		`return new TextEncoder().encode("😀").join(",")`:                                                                         "240,159,152,128",
		`try { new TextDecoder("utf-7"); return "no" } catch (e) { return e.name }`:                                              "RangeError",
		`return new TextDecoder("latin1").encoding`:                                                                              "windows-1252",
		`return new TextDecoder("sjis").decode(new Uint8Array([0x82, 0xA0]))`:                                                    "あ",
		`return new TextDecoder("utf-16le").decode(new Uint8Array([0x3D, 0xD8, 0x00, 0xDE]))`:                                    "😀",
		`const u = new Uint8Array(5); const r = new TextEncoder().encodeInto("a😀b", u); return [r.read, r.written, ...u].join()`: "3,5,97,240,159,152,128",
		`const u = new Uint8Array(4); const r = new TextEncoder().encodeInto("ab😀", u); return [r.read, r.written].join()`:       "2,2",
		`return new TextEncoder().encode("\ud800x").join()`:                                                                      "239,191,189,120",
		`return atob(" YW Jj ") + btoa("\xff\xfe")`:                                                                              "abc//4=",
		`try { btoa("€"); return "no" } catch (e) { return e.name + " " + (e instanceof DOMException) }`:                         "InvalidCharacterError true",
		`try { atob("a"); return "no" } catch (e) { return e.name }`:                                                             "InvalidCharacterError",
		`return [...atob("/w==")].map(c => c.charCodeAt(0)).join()`:                                                              "255",
	}
	for src, want := range cases {
		got, err := w.Eval(src)
		if err != nil {
			t.Errorf("%s: %v", src, err)
			continue
		}
		if got != want {
			t.Errorf("%s = %q, want %q", src, got, want)
		}
	}
}
