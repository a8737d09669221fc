package engine

import (
	"bytes"
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"github.com/dop251/goja"
	"github.com/go-sourcemap/sourcemap"
	"github.com/google/pprof/profile"
)

// ProfileRenders renders req n times in this isolate with goja's sampling
// profiler on and returns the profile: samples of JS stacks (what each
// sample's function was running, every 10 ms), their count and time, in
// pprof form. Its functions and lines are those of the bundle; MapProfile
// turns them into source files. goja's profiler covers every runtime of
// the process, so nothing else should render meanwhile.
func (i *Isolate) ProfileRenders(ctx context.Context, req *Request, n int) (*profile.Profile, error) {
	var buf bytes.Buffer
	if err := goja.StartProfile(&buf); err != nil {
		return nil, fmt.Errorf("engine: %w", err)
	}
	var rerr error
	for k := 0; k < n && rerr == nil; k++ {
		_, rerr = i.Render(ctx, req)
	}
	goja.StopProfile()
	if rerr != nil {
		return nil, rerr
	}
	p, err := profile.Parse(&buf)
	if err != nil {
		return nil, fmt.Errorf("engine: reading the JS profile: %w", err)
	}
	return p, nil
}

// sourceMapComment is the last line esbuild writes into a bundle with a
// source map, inline (data: URL) or external.
var sourceMapComment = regexp.MustCompile(`\n//# sourceMappingURL=([^\n]*)\n*$`)

// SplitSourceMap returns code without its trailing sourceMappingURL comment
// and the source map that comment inlines (nil for an external one). A
// bundle compiled without the comment makes goja report its own lines,
// which MapProfile maps.
func SplitSourceMap(code []byte) (stripped, inline []byte) {
	m := sourceMapComment.FindSubmatchIndex(code)
	if m == nil {
		return code, nil
	}
	url := string(code[m[2]:m[3]])
	stripped = code[:m[0]+1]
	if _, b64, ok := strings.Cut(url, ";base64,"); ok && strings.HasPrefix(url, "data:application/json") {
		if data, err := base64.StdEncoding.DecodeString(b64); err == nil {
			inline = data
		}
	}
	return stripped, inline
}

// MapProfile rewrites a profile of bundle code through the bundle's source
// map, so that it names source files and lines: every location's line is
// looked up at the first code of that bundle line, every function gets the
// source file of its locations, and anonymous functions are named by where
// they are ("(anonymous src/App.jsx:45)"). goja's ".N" suffixes, which it
// adds to tell functions of the same name apart, are dropped: functions
// are told apart by file. code is the bundle the profile ran (without the
// source map comment); root is the folder the map's sources are relative
// to (the build's output folder, BuildOptions.Dir), and files under it are
// named relative to it ("src/App.jsx"), others by absolute path.
func MapProfile(p *profile.Profile, code, sourceMap []byte, root string) error {
	sm, err := sourcemap.Parse("", sourceMap)
	if err != nil {
		return fmt.Errorf("engine: reading the source map: %w", err)
	}
	lines := bytes.Split(code, []byte("\n"))
	type pos struct {
		file string
		line int
	}
	lookup := func(l int) (pos, bool) {
		if l < 1 || l > len(lines) {
			return pos{}, false
		}
		text := lines[l-1]
		col := len(text) - len(bytes.TrimLeft(text, " \t"))
		src, _, line, _, ok := sm.Source(l, col)
		if !ok || src == "" {
			return pos{}, false
		}
		return pos{sourceName(root, src), line}, true
	}

	type fnKey struct{ name, file string }
	funcs := map[fnKey]*profile.Function{}
	var out []*profile.Function
	newFunc := func(name, file string, start int) *profile.Function {
		k := fnKey{name, file}
		if f, ok := funcs[k]; ok {
			if start > 0 && (f.StartLine == 0 || int64(start) < f.StartLine) {
				f.StartLine = int64(start)
			}
			return f
		}
		f := &profile.Function{ID: uint64(len(out) + 1), Name: name, SystemName: name, Filename: file, StartLine: int64(start)}
		funcs[k] = f
		out = append(out, f)
		return f
	}
	for _, loc := range p.Location {
		for li := range loc.Line {
			l := &loc.Line[li]
			if l.Function == nil {
				continue
			}
			name := gojaName(l.Function.Name)
			at, ok := lookup(int(l.Line))
			if !ok {
				at = pos{l.Function.Filename, int(l.Line)}
			}
			if name == "" {
				name = fmt.Sprintf("(anonymous %s:%d)", at.file, at.line)
			}
			l.Function = newFunc(name, at.file, at.line)
			l.Line = int64(at.line)
		}
	}
	sort.SliceStable(out, func(a, b int) bool { return out[a].ID < out[b].ID })
	p.Function = out
	p.Mapping = []*profile.Mapping{{ID: 1, File: "[JavaScript]", HasFunctions: true, HasFilenames: true, HasLineNumbers: true}}
	for _, loc := range p.Location {
		loc.Mapping = p.Mapping[0]
	}
	if err := p.CheckValid(); err != nil {
		return errors.New("engine: the mapped JS profile is not valid: " + err.Error())
	}
	return nil
}

// sourceName is how a profile names the source map's source src.
func sourceName(root, src string) string {
	if root == "" {
		return src
	}
	abs := filepath.Clean(filepath.Join(root, filepath.FromSlash(src)))
	if rel, err := filepath.Rel(root, abs); err == nil && !strings.HasPrefix(rel, "..") {
		return filepath.ToSlash(rel)
	}
	return filepath.ToSlash(abs)
}

// gojaName is a function name as goja's profiler wrote it, without the
// ".N" it appends to duplicates; "" for anonymous functions.
func gojaName(n string) string {
	if i := strings.LastIndexByte(n, '.'); i > 0 {
		if _, err := strconv.Atoi(n[i+1:]); err == nil {
			n = n[:i]
		}
	}
	if n == "<anonymous>" {
		return ""
	}
	return n
}
