package fetch_test

import (
	"testing"

	"bext/web/internal/webtest"
)

func TestSmoke(t *testing.T) {
	got := webtest.Run(t, `
const h = new Headers({a: '1', B: ' 2 '}); h.append('a', '3');
const r = new Response("hello", {status: 201, headers: h});
const fd = new FormData(); fd.append('x', 'y'); fd.append('f', new Blob(['zz'], {type: 'text/x'}), 'f.txt');
const r2 = new Response(fd);
const f2 = await r2.formData();
return [[...h], r.status, r.headers.get('content-type'), await r.text(), r.bodyUsed, [...f2].map(([k, v]) => typeof v === 'string' ? v : v.name + ':' + v.type + ':' + v.size),
  await new Blob(['a', new Uint8Array([98])]).text(), await Response.json({a: 1}).json()];
`)
	t.Log(got)
}
