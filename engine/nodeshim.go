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
)

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
	pkgs := &packageCache{m: map[string]*pkgInfo{}}
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
	dir     string
	browser map[string]*string
}

type packageCache struct {
	mu sync.Mutex
	m  map[string]*pkgInfo // dir -> nearest package (nil: none)
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
				}
			}
		}
	} else if parent := filepath.Dir(dir); parent != dir {
		p = c.lookup(parent)
	}
	c.m[dir] = p
	return p
}
