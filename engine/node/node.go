package node

import (
	"embed"
	"fmt"
	"slices"
	"strings"

	"github.com/dop251/goja"

	"bext/web/webidl"
)

// RequireGlobal is the global function through which a server bundle loads
// a Node built-in: the build resolves `import … from "node:events"` to a
// module whose body is `module.exports = __bext_node("events")`. Node's
// parity runner defines the same global as Node's own require, so one
// bundle runs on either.
const RequireGlobal = "__bext_node"

// module is one built-in: a JS source (run once per runtime from a Program
// compiled once per process) and/or a native part made per runtime.
type module struct {
	js     string                               // file under js/, "" for none
	native func(s *state, exports *goja.Object) // Go part; for a JS module it fills the `native` argument
	alias  func(s *state) goja.Value            // the module is another value (process, console …)
}

//go:embed js/*.js
var jsFiles embed.FS

// modules lists every built-in bext provides, by name without "node:".
var modules = map[string]*module{
	"assert":              {js: "assert.js"},
	"assert/strict":       {js: "assert_strict.js"},
	"async_hooks":         {js: "async_hooks.js", native: asyncHooksNative},
	"buffer":              {js: "buffer.js", native: bufferNative},
	"console":             {alias: func(s *state) goja.Value { return s.r.RT.Get("console") }},
	"crypto":              {js: "crypto.js", native: cryptoNative},
	"diagnostics_channel": {js: "diagnostics_channel.js"},
	"events":              {js: "events.js"},
	"path":                {js: "path.js"},
	"path/posix":          {js: "path_posix.js"},
	"perf_hooks":          {js: "perf_hooks.js"},
	"process":             {alias: func(s *state) goja.Value { return s.r.RT.Get("process") }},
	"querystring":         {js: "querystring.js"},
	"stream":              {js: "stream.js"},
	"stream/promises":     {js: "stream_promises.js"},
	"stream/web":          {js: "stream_web.js"},
	"string_decoder":      {js: "string_decoder.js"},
	"timers":              {js: "timers.js"},
	"timers/promises":     {js: "timers_promises.js"},
	"url":                 {js: "url.js"},
	"util":                {js: "util.js", native: utilNative},
	"util/types":          {js: "util_types.js"},
}

// Has reports whether bext provides the Node built-in name ("events",
// "node:events", "stream/promises" …).
func Has(name string) bool {
	name = strings.TrimPrefix(name, "node:")
	_, ok := modules[name]
	return ok && !strings.HasPrefix(name, "internal/")
}

// Provided lists the built-ins bext provides, sorted.
func Provided() []string {
	out := make([]string, 0, len(modules))
	for n := range modules {
		if strings.HasPrefix(n, "internal/") {
			continue
		}
		out = append(out, n)
	}
	slices.Sort(out)
	return out
}

// IsBuiltin reports whether name is a Node 20 built-in module (provided by
// bext or not), with or without the "node:" prefix. Names only Node knows
// with the prefix ("node:test", "node:sea", "node:sqlite") count only
// with it.
func IsBuiltin(name string) bool {
	if rest, ok := strings.CutPrefix(name, "node:"); ok {
		return slices.Contains(builtinNames, rest) || slices.Contains(prefixOnly, rest)
	}
	return slices.Contains(builtinNames, name)
}

// Builtins lists Node 20's built-in module names (without "node:").
func Builtins() []string { return slices.Clone(builtinNames) }

// builtinNames is Node 20's require("module").builtinModules.
var builtinNames = []string{
	"_http_agent", "_http_client", "_http_common", "_http_incoming", "_http_outgoing", "_http_server",
	"_stream_duplex", "_stream_passthrough", "_stream_readable", "_stream_transform", "_stream_wrap",
	"_stream_writable", "_tls_common", "_tls_wrap", "assert", "assert/strict", "async_hooks", "buffer",
	"child_process", "cluster", "console", "constants", "crypto", "dgram", "diagnostics_channel", "dns",
	"dns/promises", "domain", "events", "fs", "fs/promises", "http", "http2", "https", "inspector",
	"inspector/promises", "module", "net", "os", "path", "path/posix", "path/win32", "perf_hooks",
	"process", "punycode", "querystring", "readline", "readline/promises", "repl", "stream",
	"stream/consumers", "stream/promises", "stream/web", "string_decoder", "sys", "timers",
	"timers/promises", "tls", "trace_events", "tty", "url", "util", "util/types", "v8", "vm", "wasi",
	"worker_threads", "zlib",
}

var prefixOnly = []string{"test", "test/reporters", "sea", "sqlite"}

// state is the Node side of one runtime.
type state struct {
	r       *webidl.Realm
	exports map[string]goja.Value
	loading map[string]*goja.Object // module objects of modules being loaded (cycles)
	require goja.Value
	ticks   *ticker
	als     *asyncContext
	// cached constructors and prototypes
	uint8Ctor       goja.Value
	bufferCtor      *goja.Object // Buffer, once buffer is loaded
	bufferPrototype *goja.Object
}

type stateKey struct{}

func stateOf(r *webidl.Realm) *state {
	return webidl.Value(r, stateKey{}, func() *state {
		s := &state{r: r}
		s.require = r.RT.ToValue(s.requireCall)
		return s
	})
}

// Install gives the runtime of r what a server build expects of Node:
// the module loader behind RequireGlobal, and the Node globals Buffer and
// process (env, nextTick, version …), all lazily: nothing is built until
// the bundle first touches it. Call it once, after the runtime's own
// process object (env, argv) exists.
func Install(r *webidl.Realm) {
	s := stateOf(r)
	g := r.RT.GlobalObject()
	_ = g.DefineDataProperty(RequireGlobal, s.require, goja.FLAG_TRUE, goja.FLAG_TRUE, goja.FLAG_FALSE)
	r.Lazy("Buffer", func() {
		b := s.load("buffer").(*goja.Object)
		r.Global("Buffer", b.Get("Buffer"))
	})
	installProcess(s)
}

func (s *state) requireCall(call goja.FunctionCall) goja.Value {
	return s.load(call.Argument(0).String())
}

// Require returns the exports of built-in name in r's runtime, loading it
// on first use. It panics with a JS Error for a name bext does not provide.
func Require(r *webidl.Realm, name string) goja.Value { return stateOf(r).load(name) }

func (s *state) load(name string) goja.Value {
	name = strings.TrimPrefix(name, "node:")
	if s.exports == nil {
		s.exports = map[string]goja.Value{}
		s.loading = map[string]*goja.Object{}
	}
	if v, ok := s.exports[name]; ok {
		return v
	}
	if m, ok := s.loading[name]; ok {
		return m.Get("exports")
	}
	m, ok := modules[name]
	if !ok {
		err := s.r.NewError("Error", fmt.Sprintf("bext: the Node built-in %q is not available in a bext isolate (bext provides %s)", name, strings.Join(Provided(), ", ")))
		_ = err.Set("code", "ERR_UNKNOWN_BUILTIN_MODULE")
		panic(s.r.RT.ToValue(err))
	}
	if m.alias != nil {
		v := m.alias(s)
		s.exports[name] = v
		return v
	}
	rt := s.r.RT
	mod := rt.NewObject()
	exports := rt.NewObject()
	_ = mod.Set("exports", exports)
	s.loading[name] = mod
	defer delete(s.loading, name)
	native := rt.NewObject()
	if m.native != nil {
		m.native(s, native)
	}
	prog, err := bodyProgram(m.js)
	if err != nil {
		panic(rt.NewGoError(fmt.Errorf("bext: compiling node:%s: %w", name, err)))
	}
	fnv, err := rt.RunProgram(prog)
	if err != nil {
		panic(err)
	}
	fn, _ := goja.AssertFunction(fnv)
	if _, err := fn(goja.Undefined(), mod, exports, s.require, native); err != nil {
		panic(err)
	}
	v := mod.Get("exports")
	s.exports[name] = v
	return v
}

// call calls fn (a JS function value) with args, panicking with its
// exception (for use inside host functions).
func (s *state) call(fn goja.Value, this goja.Value, args ...goja.Value) goja.Value {
	f, ok := goja.AssertFunction(fn)
	if !ok {
		panic(s.r.RT.NewTypeError("not a function"))
	}
	v, err := f(this, args...)
	if err != nil {
		panic(err)
	}
	return v
}

// ret adapts a host function with a plain Go result to goja's
// FunctionCall signature (goja converts other signatures by reflection,
// which does not pass FunctionCall through).
func ret[T any](rt *goja.Runtime, f func(goja.FunctionCall) T) func(goja.FunctionCall) goja.Value {
	return func(c goja.FunctionCall) goja.Value { return rt.ToValue(f(c)) }
}
