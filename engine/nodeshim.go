package engine

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"

	"github.com/evanw/esbuild/pkg/api"

	"bext/engine/node"
)

// The server build resolves Node built-ins ("events", "node:buffer",
// "stream/promises" …) to bext's own implementations (package
// engine/node): the bundle holds a tiny module per built-in,
// `module.exports = __bext_node("events")`, and the isolate loads the
// real one the first time it is required. A built-in bext does not
// provide is a build error naming the module and the importing file
// (file:line:col), unless the importing package says, in its "browser"
// field, that it can do without it ({"fs": false}) or names a stand-in.

const (
	nodeNS      = "bext-node"
	nodeEmptyNS = "bext-node-empty"
	nodeFetchNS = "bext-node-fetch"
)

// nodeFetchShim stands in for the node-fetch package: the isolate's fetch.
const nodeFetchShim = `const g = globalThis;
function fetch(...args) { return g.fetch(...args); }
class FetchError extends Error { constructor(message, type, systemError) { super(message); this.name = "FetchError"; this.type = type; if (systemError) { this.code = this.errno = systemError.code; } } }
class AbortError extends Error { constructor(message, type = "aborted") { super(message); this.name = "AbortError"; this.type = type; } }
module.exports = fetch;
module.exports.default = fetch;
module.exports.FetchError = FetchError;
module.exports.AbortError = AbortError;
module.exports.isRedirect = (code) => [301, 302, 303, 307, 308].includes(code);
for (const name of ["Headers", "Request", "Response", "FormData", "Blob", "File"]) {
  Object.defineProperty(module.exports, name, { enumerable: true, get: () => g[name] });
}`

var nodeBuiltinFilter = func() string {
	var names []string
	for _, n := range builtinList() {
		names = append(names, regexp.QuoteMeta(n))
	}
	return `^(node:)?(` + strings.Join(names, "|") + `)$|^node:`
}()

func builtinList() []string {
	out := node.Builtins()
	for _, n := range []string{"test", "test/reporters", "sea", "sqlite"} {
		out = append(out, "node:"+n)
	}
	return out
}

// nodeShimPlugin resolves Node built-ins for the server build; see above.
func nodeShimPlugin() api.Plugin {
	pkgs := &packageCache{m: map[string]*pkgInfo{}, needs: map[string]bool{}}
	return api.Plugin{Name: "bext-node-builtins", Setup: func(pb api.PluginBuild) {
		pb.OnResolve(api.OnResolveOptions{Filter: nodeBuiltinFilter}, func(a api.OnResolveArgs) (api.OnResolveResult, error) {
			if !node.IsBuiltin(a.Path) {
				return api.OnResolveResult{}, nil // "node:something" that is no built-in: let esbuild report it
			}
			name := strings.TrimPrefix(a.Path, "node:")
			if node.Has(name) {
				return api.OnResolveResult{Path: name, Namespace: nodeNS}, nil
			}
			if a.Importer != "" && filepath.IsAbs(a.Importer) {
				if p := pkgs.of(filepath.Dir(a.Importer)); p != nil {
					for _, key := range []string{a.Path, name, "node:" + name} {
						v, ok := p.browser[key]
						if !ok {
							continue
						}
						if v == nil {
							return api.OnResolveResult{Path: name, Namespace: nodeEmptyNS}, nil
						}
						r := pb.Resolve(*v, api.ResolveOptions{ResolveDir: p.dir, Kind: a.Kind, Importer: a.Importer})
						return api.OnResolveResult{Path: r.Path, Namespace: r.Namespace, External: r.External, Errors: r.Errors, Warnings: r.Warnings}, nil
					}
				}
			}
			return api.OnResolveResult{Errors: []api.Message{{
				Text: "bext: the Node built-in \"" + name + "\" is not available in a bext isolate (imported by " + relImporter(a.Importer, a.ResolveDir) + ")",
				Notes: []api.Note{{Text: "bext provides " + strings.Join(node.Provided(), ", ") +
					". Use a Web API instead (fetch, crypto.subtle, ReadableStream …), a build of the package for workers or edge runtimes, or map \"" + name + "\" to false in the package's \"browser\" field if the code path is never taken."}},
			}}}, nil
		})
		// node-fetch needs node:http; bext isolates have fetch itself.
		pb.OnResolve(api.OnResolveOptions{Filter: `^node-fetch$`}, func(a api.OnResolveArgs) (api.OnResolveResult, error) {
			return api.OnResolveResult{Path: "node-fetch", Namespace: nodeFetchNS}, nil
		})
		pb.OnLoad(api.OnLoadOptions{Filter: `.*`, Namespace: nodeFetchNS}, func(a api.OnLoadArgs) (api.OnLoadResult, error) {
			src := nodeFetchShim
			return api.OnLoadResult{Contents: &src, Loader: api.LoaderJS}, nil
		})
		// A file a package maps away in its "browser" field is replaced
		// when it imports a Node built-in bext does not provide (axios's
		// http adapter), never otherwise.
		pb.OnResolve(api.OnResolveOptions{Filter: `^\.\.?/`}, func(a api.OnResolveArgs) (api.OnResolveResult, error) {
			if a.Namespace != "file" || a.Importer == "" || !strings.Contains(a.Importer, "node_modules") {
				return api.OnResolveResult{}, nil
			}
			p := pkgs.of(filepath.Dir(a.Importer))
			if p == nil || !p.hasFileMap {
				return api.OnResolveResult{}, nil
			}
			target := filepath.Join(a.ResolveDir, a.Path)
			to, ok := p.mapFile(target)
			if !ok || !needsMissingBuiltin(pkgs, pb, target, 3) {
				return api.OnResolveResult{}, nil
			}
			if to == nil {
				return api.OnResolveResult{Path: target, Namespace: nodeEmptyNS}, nil
			}
			return api.OnResolveResult{Path: filepath.Join(p.dir, *to)}, nil
		})
		pb.OnLoad(api.OnLoadOptions{Filter: `.*`, Namespace: nodeNS}, func(a api.OnLoadArgs) (api.OnLoadResult, error) {
			src := "module.exports = " + node.RequireGlobal + "(" + jsonString(a.Path) + ");"
			return api.OnLoadResult{Contents: &src, Loader: api.LoaderJS}, nil
		})
		pb.OnLoad(api.OnLoadOptions{Filter: `.*`, Namespace: nodeEmptyNS}, func(a api.OnLoadArgs) (api.OnLoadResult, error) {
			src := "module.exports = {};"
			return api.OnLoadResult{Contents: &src, Loader: api.LoaderJS}, nil
		})
	}}
}

func relImporter(importer, dir string) string {
	if importer == "" {
		return "the entry"
	}
	if wd, err := os.Getwd(); err == nil {
		if r, err := filepath.Rel(wd, importer); err == nil && !strings.HasPrefix(r, "..") {
			return r
		}
	}
	return importer
}

func jsonString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// pkgInfo is what the build needs of a package.json: its folder and the
// object form of its "browser" field (nil value = false).
type pkgInfo struct {
	dir        string
	browser    map[string]*string
	hasFileMap bool // browser has "./file" keys
}

// mapFile looks file up among the browser field's file keys, with and
// without its extension.
func (p *pkgInfo) mapFile(file string) (*string, bool) {
	rel, err := filepath.Rel(p.dir, file)
	if err != nil || strings.HasPrefix(rel, "..") {
		return nil, false
	}
	rel = "./" + filepath.ToSlash(rel)
	for _, k := range []string{rel, rel + ".js", strings.TrimSuffix(rel, ".js")} {
		if v, ok := p.browser[k]; ok {
			return v, true
		}
	}
	return nil, false
}

var importSpecifier = regexp.MustCompile(`(?:require\(\s*|from\s*|import\s*\(\s*|import\s+)["']([^"']+)["']`)

// needsMissingBuiltin reports whether file (or file.js) imports a Node
// built-in bext does not provide, itself or through the modules it
// imports, up to depth levels down (axios's FormData class imports the
// form-data package, which imports node:http).
func needsMissingBuiltin(c *packageCache, pb api.PluginBuild, file string, depth int) bool {
	return c.needsMissing(pb, file, depth, map[string]bool{})
}

// needsMissing answers needsMissingBuiltin; seen holds the files of this
// chain of imports (a cycle adds nothing). esbuild resolves on several
// goroutines: a file being scanned by another one is scanned again here
// rather than taken as "no" — only final answers are cached.
func (c *packageCache) needsMissing(pb api.PluginBuild, file string, depth int, seen map[string]bool) bool {
	c.mu.Lock()
	v, ok := c.needs[file]
	c.mu.Unlock()
	if ok {
		return v
	}
	if seen[file] {
		return false
	}
	seen[file] = true
	path := file
	src, err := os.ReadFile(path)
	if err != nil {
		path = file + ".js"
		src, err = os.ReadFile(path)
	}
	found := false
	complete := true // every import was looked at (not cut by depth or a cycle)
	if err == nil {
		for _, m := range importSpecifier.FindAllSubmatch(src, -1) {
			name := string(m[1])
			if node.IsBuiltin(name) {
				if !node.Has(name) {
					found = true
					break
				}
				continue
			}
			if name == "node-fetch" {
				continue
			}
			if depth == 0 {
				complete = false
				continue
			}
			r := pb.Resolve(name, api.ResolveOptions{ResolveDir: filepath.Dir(path), Kind: api.ResolveJSImportStatement, Importer: path})
			if len(r.Errors) == 0 && r.Namespace == "file" && filepath.IsAbs(r.Path) {
				if seen[r.Path] {
					complete = false
					continue
				}
				if c.needsMissing(pb, r.Path, depth-1, seen) {
					found = true
					break
				}
			}
		}
	}
	if found || complete {
		c.mu.Lock()
		c.needs[file] = found
		c.mu.Unlock()
	}
	return found
}

type packageCache struct {
	mu    sync.Mutex
	m     map[string]*pkgInfo // dir -> nearest package (nil: none)
	needs map[string]bool     // file -> imports a built-in bext lacks
}

// of returns the package that owns dir: the nearest package.json at or
// above it.
func (c *packageCache) of(dir string) *pkgInfo {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.lookup(dir)
}

func (c *packageCache) lookup(dir string) *pkgInfo {
	if p, ok := c.m[dir]; ok {
		return p
	}
	var p *pkgInfo
	if b, err := os.ReadFile(filepath.Join(dir, "package.json")); err == nil {
		p = &pkgInfo{dir: dir}
		var pj struct {
			Name    string          `json:"name"`
			Browser json.RawMessage `json:"browser"`
		}
		_ = json.Unmarshal(b, &pj)
		if pj.Name == "" && len(pj.Browser) == 0 {
			// a nested package.json ({"type": "module"} in dist/) does not
			// end the package
			if parent := filepath.Dir(dir); parent != dir {
				p = c.lookup(parent)
			} else {
				p = nil
			}
			c.m[dir] = p
			return p
		}
		if len(pj.Browser) > 0 && pj.Browser[0] == '{' {
			var raw map[string]any
			if json.Unmarshal(pj.Browser, &raw) == nil {
				p.browser = map[string]*string{}
				for k, v := range raw {
					switch v := v.(type) {
					case bool:
						if !v {
							p.browser[k] = nil
						}
					case string:
						p.browser[k] = &v
					}
					if strings.HasPrefix(k, "./") {
						p.hasFileMap = true
					}
				}
			}
		}
	} else if parent := filepath.Dir(dir); parent != dir {
		p = c.lookup(parent)
	}
	c.m[dir] = p
	return p
}
