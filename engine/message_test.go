package engine

import (
	"context"
	"testing"
)

func TestMessageChannel(t *testing.T) {
	p, err := Compile("mc.js", []byte(`globalThis.render = async () => {
		const out = [];
		const ch = new MessageChannel();
		const seen = new Promise((resolve) => {
			ch.port1.onmessage = (e) => out.push("on:" + e.data + ":" + (e.target === ch.port1) + ":" + e.type);
			const l = (e) => out.push("listener:" + e.data);
			const gone = () => out.push("removed listener ran");
			ch.port1.addEventListener("message", l);
			ch.port1.addEventListener("message", gone);
			ch.port1.removeEventListener("message", gone);
			ch.port2.postMessage({n: 1}.n);
			setImmediate(() => out.push("immediate"));
			ch.port2.postMessage(2);
			setTimeout(resolve, 5);
		});
		await seen;
		ch.port1.close();
		ch.port2.postMessage(3); // to a closed port: dropped
		let illegal = "no";
		try { new MessagePort(); } catch (e) { illegal = e instanceof TypeError ? "TypeError" : String(e); }
		await new Promise((r) => setTimeout(r, 1));
		return out.join(",") + "|" + (ch.port1 instanceof MessagePort) + "|" + illegal;
	};`))
	if err != nil {
		t.Fatal(err)
	}
	iso, err := NewIsolate(p, Options{})
	if err != nil {
		t.Fatal(err)
	}
	resp, err := iso.Render(context.Background(), &Request{Method: "GET", Path: "/", URL: "/"})
	if err != nil {
		t.Fatal(err)
	}
	want := "on:1:true:message,listener:1,immediate,on:2:true:message,listener:2|true|TypeError"
	if resp.HTML != want {
		t.Fatalf("got  %s\nwant %s", resp.HTML, want)
	}
}
