package scratch

import (
	"context"
	"fmt"
	"testing"

	"bext/engine"
)

func TestGlobals(t *testing.T) {
	src := `globalThis.render = () => ["URL","URLSearchParams","URLPattern","Headers","Request","Response","fetch","AbortController","AbortSignal","Event","EventTarget","CustomEvent","DOMException","atob","btoa","crypto","structuredClone","Blob","File","FormData","ReadableStream","WritableStream","TransformStream","TextEncoderStream","TextDecoderStream","navigator","self","Intl","ByteLengthQueuingStrategy","CompressionStream","DecompressionStream","WebAssembly","performance","queueMicrotask","setTimeout","MessageChannel","TextEncoder","TextDecoder","console","reportError","ReadableByteStreamController"].map(n => n + ":" + typeof globalThis[n]).join(" ") + " ua=" + (typeof navigator == "object" ? navigator.userAgent : "");`
	prog, err := engine.Compile("x.js", []byte(src))
	if err != nil { t.Fatal(err) }
	iso, err := engine.NewIsolate(prog, engine.Options{})
	if err != nil { t.Fatal(err) }
	r, err := iso.Render(context.Background(), &engine.Request{Path: "/"})
	if err != nil { t.Fatal(err) }
	fmt.Println(r.HTML)
}
