package engine

import "testing"

// Edge cases of TextDecoder a streaming renderer or a fetch body would hit.
func TestTextDecoderEdgeCases(t *testing.T) {
	iso := kitchen(t, Options{})
	cases := map[string]string{
		// "é" split across two stream:true calls decodes once both halves arrived
		`const d = new TextDecoder(); d.decode(new Uint8Array([0x61, 0xC3]), {stream: true}) + "|" + d.decode(new Uint8Array([0xA9]))`: "a|é",
		`new TextDecoder().decode(new Uint8Array([0xEF, 0xBB, 0xBF, 0x68, 0x69]))`:                                                     "hi",
		`new TextDecoder("utf-8", {ignoreBOM: true}).decode(new Uint8Array([0xEF, 0xBB, 0xBF])).length`:                                "1",
		`new TextDecoder().decode(new Uint8Array([0x61, 0xFF, 0x62]))`:                                                                 "a\uFFFDb",
		`try { new TextDecoder("utf-8", {fatal: true}).decode(new Uint8Array([0xFF])); "no" } catch (e) { e.name }`:                    "TypeError",
		`new TextDecoder().decode(new Uint8Array([0x78, 0x61, 0x62, 0x79]).subarray(1, 3))`:                                            "ab",
		`new TextDecoder().decode(new DataView(new Uint8Array([0x6F, 0x6B]).buffer))`:                                                  "ok",
		`new TextDecoder().decode()`:                                   "",
		`new TextEncoder().encode("😀").join(",")`:                      "240,159,152,128",
		`try { new TextDecoder("latin1"); "no" } catch (e) { e.name }`: "TypeError",
	}
	for src, want := range cases {
		v, err := iso.rt.RunString(src)
		if err != nil {
			t.Errorf("%s: %v", src, err)
			continue
		}
		if v.String() != want {
			t.Errorf("%s = %q, want %q", src, v.String(), want)
		}
	}
}
