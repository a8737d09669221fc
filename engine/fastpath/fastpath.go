package fastpath

import (
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"

	"github.com/evanw/esbuild/pkg/api"
)

// The rewrites, by the name `[app] fast_paths_off` uses, in the order they
// are applied to a file.
const (
	Sink   = "sink"   // React renderToString: the string sink becomes an array joined once
	Flush  = "flush"  // React renderToString: a segment's chunks reach the sink joined, not one by one
	Chunks = "chunks" // React renderToReadableStream: string chunks stay strings until written
	Concat = "concat" // React renderToString: an attribute or closing tag is pushed as one chunk
	Escape = "escape" // React, Preact, Vue: HTML escaping of text and attribute values in Go
	Props  = "props"  // React server renderer: for…in over props and styles becomes Object.keys
	JSX    = "jsx"    // React 18 jsx(): an element's props are the object the compiled JSX passed
)

// Names lists every rewrite, in the order they are applied.
func Names() []string { return []string{Sink, Flush, Chunks, Concat, Escape, Props, JSX} }

// All is every rewrite: the default.
func All() []string { return Names() }

// Without returns All minus the names in off (which must be known; see
// Check).
func Without(off ...string) []string {
	var out []string
	for _, n := range Names() {
		if !slices.Contains(off, n) {
			out = append(out, n)
		}
	}
	return out
}

// Check returns an error naming the first entry of names that is not a
// rewrite, and the valid names.
func Check(names []string) error {
	for _, n := range names {
		if !slices.Contains(Names(), n) {
			return fmt.Errorf("unknown fast path %q (the fast paths are %s)", n, strings.Join(Names(), ", "))
		}
	}
	return nil
}

// ErrUnrecognised is wrapped by a rewrite that does not find the code it
// was written against; the file is then used as is.
var ErrUnrecognised = errors.New("unrecognised build")

// rewrite is one named change to one library's server code.
type rewrite struct {
	name string
	pkg  string // npm package whose version keys the rewrite: "react-dom"
	// files selects, by path relative to the package folder
	// ("cjs/react-dom-server.browser.production.js"), the files the
	// rewrite was written for. A selected file that lacks the expected
	// code is an unrecognised build (warned about and left as is).
	files *regexp.Regexp
	// skip, when set, passes over a selected file silently: it is a build
	// the rewrite has nothing to do in (a streaming-only renderer has no
	// renderToString sink).
	skip func(src string) bool
	// majors are the major versions of pkg the rewrite was checked against;
	// leave lists those it leaves alone on purpose (silently).
	majors, leave []string
	apply         func(src string) (string, error)
}

// rewrites are every rewrite's targets, in application order.
var rewrites []rewrite

// register adds targets, keeping rewrites in the order of Names.
func register(r ...rewrite) {
	rewrites = append(rewrites, r...)
	slices.SortStableFunc(rewrites, func(a, b rewrite) int {
		return slices.Index(Names(), a.name) - slices.Index(Names(), b.name)
	})
}

// loadFilter is the esbuild OnLoad filter: the folders of every package a
// rewrite targets; files that no rewrite selects pass through.
var loadFilter = `[/\\]node_modules[/\\](?:react|react-dom|preact-render-to-string|@vue[/\\]shared|@vue[/\\]server-renderer)[/\\].*\.m?js$`

// Note is what the plugin reports about one rewrite of one file: applied
// (Err nil) or left out because the code was not recognised.
type Note struct {
	Rewrite string
	File    string // package-relative, e.g. "react-dom/cjs/react-dom-server.browser.production.min.js"
	Version string // of the package; "" when unknown
	Err     error  // nil: applied
}

// Warning is the build warning for a Note with an error.
func (n Note) Warning() string {
	return fmt.Sprintf("bext fast path %q: unrecognised %s (version %s); left as is — renders may be slower (%s)",
		n.Rewrite, n.File, orUnknown(n.Version), strings.TrimPrefix(n.Err.Error(), ErrUnrecognised.Error()+": "))
}

func (n Note) String() string { return n.Rewrite + " " + n.File }

// Plugin returns the esbuild plugin applying the named rewrites (see
// Names; unknown names are ignored, Check them first). report is called
// for every file a rewrite selected, once per build of that file: with a
// nil Err when it was rewritten, with the reason when it was left as is.
// The plugin may be shared by incremental rebuilds; it caches its output
// per file content.
func Plugin(names []string, report func(Note)) api.Plugin {
	var enabled []rewrite
	for _, r := range rewrites {
		if slices.Contains(names, r.name) {
			enabled = append(enabled, r)
		}
	}
	type result struct {
		out   string
		notes []Note
	}
	var (
		mu    sync.Mutex
		cache = map[[32]byte]result{}
	)
	return api.Plugin{Name: "bext-fastpath", Setup: func(b api.PluginBuild) {
		if len(enabled) == 0 {
			return
		}
		b.OnLoad(api.OnLoadOptions{Filter: loadFilter}, func(a api.OnLoadArgs) (api.OnLoadResult, error) {
			data, err := os.ReadFile(a.Path)
			if err != nil {
				return api.OnLoadResult{}, nil // let esbuild report the read error itself
			}
			key := sha256.Sum256(append([]byte(a.Path+"\x00"), data...))
			mu.Lock()
			res, ok := cache[key]
			mu.Unlock()
			if !ok {
				res.out, res.notes = Apply(enabled, a.Path, string(data))
				mu.Lock()
				cache[key] = res
				mu.Unlock()
			}
			for _, n := range res.notes {
				if report != nil {
					report(n)
				}
			}
			if res.out == "" {
				return api.OnLoadResult{}, nil
			}
			return api.OnLoadResult{Contents: &res.out, Loader: api.LoaderJS, ResolveDir: filepath.Dir(a.Path)}, nil
		})
	}}
}

// Apply runs rs (in order) over the file at path with contents src and
// returns the new contents ("" when nothing changed) and a note per
// rewrite that selected the file.
func Apply(rs []rewrite, path, src string) (string, []Note) {
	var notes []Note
	out := src
	pkgs := map[string]pkgInfo{}
	for _, r := range rs {
		p, ok := pkgs[r.pkg]
		if !ok {
			p = findPackage(path, r.pkg)
			pkgs[r.pkg] = p
		}
		if p.dir == "" || !r.files.MatchString(p.rel) || r.skip != nil && r.skip(out) || slices.Contains(r.leave, major(p.version)) {
			continue
		}
		n := Note{Rewrite: r.name, File: r.pkg + "/" + p.rel, Version: p.version}
		switch next, err := r.applyChecked(out, p.version); {
		case err != nil:
			n.Err = err
		default:
			out = next
		}
		notes = append(notes, n)
	}
	if out == src {
		return "", notes
	}
	return out, notes
}

func (r rewrite) applyChecked(src, version string) (string, error) {
	if !slices.Contains(r.majors, major(version)) {
		return "", fmt.Errorf("%w: %s %s is not a version this rewrite was checked against (%s)",
			ErrUnrecognised, r.pkg, orUnknown(version), strings.Join(r.majors, ", "))
	}
	out, err := r.apply(src)
	if err != nil {
		if !errors.Is(err, ErrUnrecognised) {
			err = fmt.Errorf("%w: %v", ErrUnrecognised, err)
		}
		return "", err
	}
	return out, nil
}

func major(version string) string {
	m, _, _ := strings.Cut(version, ".")
	return m
}

// pkgInfo locates a file inside an npm package.
type pkgInfo struct {
	dir     string // the package folder ("" when the file is not in the package)
	rel     string // the file's path relative to dir, with forward slashes
	version string
}

// findPackage walks up from path to the folder of package name (its
// package.json names it) and reads its version.
func findPackage(path, name string) pkgInfo {
	for dir := filepath.Dir(path); ; {
		if filepath.Base(dir) == filepath.Base(name) {
			if data, err := os.ReadFile(filepath.Join(dir, "package.json")); err == nil {
				var p struct{ Name, Version string }
				if json.Unmarshal(data, &p) == nil && p.Name == name {
					rel, _ := filepath.Rel(dir, path)
					return pkgInfo{dir: dir, rel: filepath.ToSlash(rel), version: p.Version}
				}
			}
		}
		parent := filepath.Dir(dir)
		if parent == dir || filepath.Base(dir) == "node_modules" {
			return pkgInfo{}
		}
		dir = parent
	}
}

func orUnknown(v string) string {
	if v == "" {
		return "unknown"
	}
	return v
}
