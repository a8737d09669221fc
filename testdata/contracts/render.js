// The same small page through both contracts, for BenchmarkContracts.
const page = (path) => "<!doctype html><html><head><title>" + path + "</title></head><body>" + "<p>item</p>".repeat(50) + "</body></html>";
globalThis.render = (req) => ({ headers: { "content-type": "text/html; charset=utf-8" }, html: page(req.path) });
