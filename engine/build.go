package engine

import (
	"encoding/json"
	"fmt"
	"maps"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/evanw/esbuild/pkg/api"

	"bext/engine/fastpath"
)

// BuildOptions describe one esbuild build of the app.
type BuildOptions struct {
	Entry   string            // entry file, relative to Dir (or absolute)
	Dir     string            // app root: resolve dir and node_modules lookup; absolute
	Dev     bool              // NODE_ENV "development" (no minify, inline source map on the server) vs "production"
	Define  map[string]string // extra defines, values are JS expressions
	Plugins []api.Plugin      // extra esbuild plugins
	OutDir  string            // client only: where hashed names are rooted; nothing is written. "" = Dir/.bext/client
	// JSXImportSource is the package of the automatic JSX runtime; "" means
	// "react". A file's own pragmas (/** @jsxRuntime classic */ /** @jsx h */,
	// /** @jsxImportSource preact */) override it.
	JSXImportSource string
	// FastPaths names the rewrites of library code to apply (see package
	// fastpath: fastpath.All() is every one, nil none). A library file a
	// rewrite does not recognise is left as is and produces a
	// Bundle.Warnings entry. Server builds only.
	FastPaths []string
	// SourceMap makes a production server build write an external source
	// map into Bundle.SourceMap (a development build inlines its own).
	SourceMap bool
}

// Bundle is the output of a build.
type Bundle struct {
	Code     []byte   // server: the IIFE to Compile; client: the entry JS
	Inputs   []string // absolute paths of every input file (from the metafile), sorted
	Warnings []string // esbuild warnings and fast path notes, formatted
	// FastPaths lists the rewrites applied, one "name package/file" each,
	// sorted (see package fastpath).
	FastPaths []string
	// SourceMap is the external source map of a server build made with
	// BuildOptions.SourceMap (nil otherwise), for the bundle as returned.
	SourceMap []byte
	Files     map[string][]byte // client: output file name relative to OutDir (e.g. "client-3F2A1B.js") -> content
	Entry     string            // client: name of the entry JS among Files
	CSS       []string          // client: CSS file names among Files
}

// entryGlobal is the IIFE global holding the server entry's exports; the
// isolate falls back to its default (or render) export when the bundle does
// not set globalThis.render itself.
const entryGlobal = "__bext_entry"

// serverTarget is what goja runs natively. goja lacks async generators,
// for-await and the regexp d flag, so esbuild lowers the first two; the
// rest of ES2022 (class fields, private methods, optional chaining, ??=)
// runs as written, which keeps stacks readable and code fast.
//
// A dynamic import() that esbuild cannot bundle (its argument is no
// string literal) is lowered to esbuild's require shim, which bext
// replaces (see dynamicRequire): goja cannot parse import().
var serverSupported = map[string]bool{
	"async-generator":      false,
	"for-await":            false,
	"regexp-match-indices": false,
	"dynamic-import":       false,
}

// fieldLowering is added to serverSupported when the bundle has a class
// field named get, set or async with an initializer (Hono's Context has
// `set = (key, value) => …`): goja's parser takes such a field for an
// accessor and fails, so class fields are compiled to constructor code.
var fieldLowering = map[string]bool{"class-field": false, "class-static-field": false}

// assetExts are loaded with esbuild's file loader on both sides, so the
// server and client see the same hashed URL for an imported image or font.
var assetExts = []string{".png", ".jpg", ".jpeg", ".gif", ".svg", ".webp", ".avif", ".ico", ".woff", ".woff2", ".ttf", ".otf"}

// AssetPrefix is the URL path under which client build outputs are served.
const AssetPrefix = "/_bext/"

func loaders(server bool) map[string]api.Loader {
	m := map[string]api.Loader{
		".js": api.LoaderJS, ".mjs": api.LoaderJS, ".cjs": api.LoaderJS,
		".jsx": api.LoaderJSX, ".ts": api.LoaderTS, ".mts": api.LoaderTS,
		".tsx": api.LoaderTSX, ".json": api.LoaderJSON, ".txt": api.LoaderText,
		".css": api.LoaderCSS,
	}
	if server {
		m[".css"] = api.LoaderEmpty // styles reach the page through the client build
	}
	for _, e := range assetExts {
		m[e] = api.LoaderFile
	}
	return m
}

func nodeEnv(dev bool) string {
	if dev {
		return "development"
	}
	return "production"
}

func commonOptions(o BuildOptions, server bool) api.BuildOptions {
	define := map[string]string{"process.env.NODE_ENV": fmt.Sprintf("%q", nodeEnv(o.Dev))}
	for k, v := range o.Define {
		define[k] = v
	}
	src := o.JSXImportSource
	if src == "" {
		src = "react"
	}
	return api.BuildOptions{
		EntryPoints:     []string{o.Entry},
		AbsWorkingDir:   o.Dir,
		Bundle:          true,
		Write:           false,
		Metafile:        true,
		LogLevel:        api.LogLevelSilent,
		Platform:        api.PlatformBrowser,
		Define:          define,
		Loader:          loaders(server),
		JSX:             api.JSXAutomatic,
		JSXImportSource: src,
		AssetNames:      "[name]-[hash]",
		PublicPath:      AssetPrefix,
		Plugins:         append([]api.Plugin(nil), o.Plugins...),
	}
}

// serverConditions are the package.json "exports" conditions of the
// server build, in the order bext prefers them (a package's own key
// order decides among those it lists): the server builds made for worker
// runtimes first (React's edge renderer, Emotion's and Solid's server
// builds), then Node's (Lit's SSR build, Vue's compiler-bearing build),
// never "browser" builds, which expect a DOM. "import", "require",
// "default" and development/production (from Dev) are matched too.
var serverConditions = []string{"workerd", "worker", "edge-light", "node"}

// serverMainFields are the package.json fields read for packages without
// "exports": ESM first, never "browser" (whose builds expect a DOM).
var serverMainFields = []string{"module", "main"}

func serverOptions(o BuildOptions) api.BuildOptions {
	b := commonOptions(o, true)
	// Neutral: no browser field remapping and no Node externals; the
	// conditions and main fields above pick the server builds, and
	// nodeShimPlugin resolves Node built-ins.
	b.Platform = api.PlatformNeutral
	b.Conditions = append(append([]string(nil), serverConditions...), nodeEnv(o.Dev))
	b.MainFields = serverMainFields
	b.Format = api.FormatIIFE
	b.GlobalName = entryGlobal
	b.Target = api.ES2022
	b.Supported = maps.Clone(serverSupported)
	// Nothing is written; rooting the output at the app dir makes source map
	// paths (and so dev stacks) read "src/App.jsx:12:3".
	b.Outdir = o.Dir
	b.Plugins = append(b.Plugins, nodeShimPlugin())
	if o.Dev {
		// goja reads inline source maps, so dev stacks name the source files.
		b.Sourcemap = api.SourceMapInline
	} else if o.SourceMap {
		b.Sourcemap = api.SourceMapExternal
	}
	return b
}

func clientOptions(o BuildOptions) api.BuildOptions {
	b := commonOptions(o, false)
	b.Format = api.FormatESModule
	b.Target = api.ES2020
	b.EntryNames = "[name]-[hash]"
	b.Outdir = o.OutDir
	if b.Outdir == "" {
		b.Outdir = filepath.Join(o.Dir, ".bext", "client")
	}
	if !o.Dev {
		b.MinifyWhitespace, b.MinifyIdentifiers, b.MinifySyntax = true, true, true
	}
	return b
}

// Builder is an incremental esbuild build (an api.BuildContext). Build may be
// called again after source files change; esbuild reuses what it can.
// A Builder is safe for use by one goroutine at a time.
type Builder struct {
	ctx    api.BuildContext
	server bool
	opts   api.BuildOptions

	mu       sync.Mutex
	fastWarn []string        // fast path warnings of the build in progress
	fastDone map[string]bool // fast paths applied in the build in progress

	fieldsLowered bool // server: class fields compiled to constructor code (see fieldLowering)
}

// NewServerBuilder prepares incremental builds of the server bundle: one IIFE
// that sets globalThis.render or exports a default render function.
func NewServerBuilder(o BuildOptions) (*Builder, error) {
	return newBuilder(o, true)
}

// NewClientBuilder prepares incremental builds of the browser bundle: ESM,
// hashed file names, minified unless Dev, CSS emitted as separate files.
func NewClientBuilder(o BuildOptions) (*Builder, error) {
	return newBuilder(o, false)
}

func newBuilder(o BuildOptions, server bool) (*Builder, error) {
	if !filepath.IsAbs(o.Dir) {
		return nil, fmt.Errorf("engine: build dir %q must be an absolute path", o.Dir)
	}
	if o.Entry == "" {
		return nil, fmt.Errorf("engine: no entry file given; set the entry (e.g. server_entry = \"src/server.jsx\")")
	}
	b := &Builder{server: server}
	if server {
		b.opts = serverOptions(o)
	} else {
		b.opts = clientOptions(o)
	}
	if server && len(o.FastPaths) > 0 {
		if err := fastpath.Check(o.FastPaths); err != nil {
			return nil, fmt.Errorf("engine: %w", err)
		}
		b.opts.Plugins = append(b.opts.Plugins, fastpath.Plugin(o.FastPaths, b.note))
	}
	ctx, cerr := api.Context(b.opts)
	if cerr != nil {
		return nil, newBuildError(cerr.Errors)
	}
	b.ctx = ctx
	return b, nil
}

func (b *Builder) note(n fastpath.Note) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if n.Err != nil {
		if !slices.Contains(b.fastWarn, n.Warning()) {
			b.fastWarn = append(b.fastWarn, n.Warning())
		}
		return
	}
	if b.fastDone == nil {
		b.fastDone = map[string]bool{}
	}
	b.fastDone[n.String()] = true
}

// Build runs the build (a Rebuild after the first). Errors are *BuildError.
func (b *Builder) Build() (*Bundle, error) {
	b.mu.Lock()
	b.fastWarn, b.fastDone = nil, nil
	b.mu.Unlock()
	res := b.ctx.Rebuild()
	if len(res.Errors) > 0 {
		return nil, newBuildError(res.Errors)
	}
	out := &Bundle{}
	if len(res.Warnings) > 0 {
		out.Warnings = api.FormatMessages(res.Warnings, api.FormatMessagesOptions{Kind: api.WarningMessage})
	}
	b.mu.Lock()
	out.Warnings = append(out.Warnings, b.fastWarn...)
	out.FastPaths = slices.Sorted(maps.Keys(b.fastDone))
	b.mu.Unlock()
	meta, err := parseMetafile(res.Metafile, b.opts.AbsWorkingDir)
	if err != nil {
		return nil, err
	}
	out.Inputs = meta.inputs
	if b.server {
		for _, f := range res.OutputFiles {
			switch {
			case strings.HasSuffix(f.Path, ".js"):
				out.Code = f.Contents
			case strings.HasSuffix(f.Path, ".js.map"):
				out.SourceMap = f.Contents
			}
		}
		if !b.fieldsLowered && accessorWordField.Match(out.Code) && gojaParseError(out.Code) != nil {
			if err := b.lowerFields(); err != nil {
				return nil, err
			}
			return b.Build()
		}
		out.Code = dynamicRequire(out.Code)
		return out, nil
	}
	out.Files = make(map[string][]byte, len(res.OutputFiles))
	for _, f := range res.OutputFiles {
		rel, err := filepath.Rel(b.opts.Outdir, f.Path)
		if err != nil {
			rel = filepath.Base(f.Path)
		}
		rel = filepath.ToSlash(rel)
		out.Files[rel] = f.Contents
		if strings.HasSuffix(rel, ".css") {
			out.CSS = append(out.CSS, rel)
		}
	}
	sort.Strings(out.CSS)
	out.Entry = meta.entryOut(b.opts.AbsWorkingDir, b.opts.Outdir)
	out.Code = out.Files[out.Entry]
	return out, nil
}

// Close releases esbuild's incremental state.
func (b *Builder) Close() {
	if b.ctx != nil {
		b.ctx.Dispose()
	}
}

// BuildServer is a one-shot server build (see NewServerBuilder).
func BuildServer(o BuildOptions) (*Bundle, error) { return buildOnce(o, true) }

// BuildClient is a one-shot client build (see NewClientBuilder).
func BuildClient(o BuildOptions) (*Bundle, error) { return buildOnce(o, false) }

func buildOnce(o BuildOptions, server bool) (*Bundle, error) {
	b, err := newBuilder(o, server)
	if err != nil {
		return nil, err
	}
	defer b.Close()
	return b.Build()
}

type metafile struct {
	Inputs  map[string]json.RawMessage `json:"inputs"`
	Outputs map[string]struct {
		EntryPoint string `json:"entryPoint"`
	} `json:"outputs"`
	inputs []string
}

// parseMetafile turns esbuild's metafile into absolute input paths. Inputs
// in a plugin namespace ("ns:path") are not files and are left out.
func parseMetafile(s, dir string) (*metafile, error) {
	var m metafile
	if err := json.Unmarshal([]byte(s), &m); err != nil {
		return nil, fmt.Errorf("engine: reading esbuild metafile: %w", err)
	}
	for p := range m.Inputs {
		if i := strings.Index(p, ":"); i > 0 && !strings.ContainsAny(p[:i], `/\`) && i != 1 {
			continue
		}
		if !filepath.IsAbs(p) {
			p = filepath.Join(dir, p)
		}
		m.inputs = append(m.inputs, filepath.Clean(p))
	}
	sort.Strings(m.inputs)
	return &m, nil
}

// entryOut names the JS output produced for the entry point, relative to outdir.
func (m *metafile) entryOut(dir, outdir string) string {
	for p, o := range m.Outputs {
		if o.EntryPoint == "" || !strings.HasSuffix(p, ".js") {
			continue
		}
		abs := p
		if !filepath.IsAbs(abs) {
			abs = filepath.Join(dir, p)
		}
		if rel, err := filepath.Rel(outdir, abs); err == nil {
			return filepath.ToSlash(rel)
		}
		return filepath.Base(p)
	}
	return ""
}
