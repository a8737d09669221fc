package intl

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/dop251/goja"
)

// TestTest262 runs test262's intl402 tests for the constructors and
// prototype methods this package owns, when BEXT_TEST262_DIR names a
// test262 checkout (git clone https://github.com/tc39/test262). test262 is
// not on the npm registry and is not vendored, so CI skips this; run it by
// hand:
//
//	BEXT_TEST262_DIR=/path/to/test262 go test ./intl -run Test262 -v
//
// It reports passes per directory. Tests of features outside ECMA-402 as
// Node 20 ships it (Temporal, DurationFormat, era codes) are not run.
func TestTest262(t *testing.T) {
	dir := os.Getenv("BEXT_TEST262_DIR")
	if dir == "" {
		t.Skip("BEXT_TEST262_DIR is not set (a test262 checkout); see the comment for how to run")
	}
	harness := func(name string) string {
		b, err := os.ReadFile(filepath.Join(dir, "harness", name))
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	prelude := map[string]*goja.Program{}
	compile := func(name string) *goja.Program {
		if p, ok := prelude[name]; ok {
			return p
		}
		p, err := goja.Compile(name, harness(name), false)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		prelude[name] = p
		return p
	}
	skipFeatures := []string{"Temporal", "Intl.DurationFormat", "Intl.Era-monthcode", "Intl.Locale-info", "intl-normative-optional", "Intl.NumberFormat-v3-collapse"}
	type stat struct{ pass, fail, skip int }
	stats := map[string]*stat{}
	var failed []string
	root := filepath.Join(dir, "test", "intl402")
	filepath.Walk(root, func(path string, info os.FileInfo, err error) error {
		if err != nil || info.IsDir() || !strings.HasSuffix(path, ".js") || strings.Contains(path, "_FIXTURE") {
			return nil
		}
		rel, _ := filepath.Rel(root, path)
		group := strings.SplitN(rel, string(filepath.Separator), 2)[0]
		if strings.HasSuffix(group, ".js") {
			group = "Intl (top level)"
		}
		switch group {
		case "Temporal", "DurationFormat", "TypedArray":
			return nil
		}
		st := stats[group]
		if st == nil {
			st = &stat{}
			stats[group] = st
		}
		src, _ := os.ReadFile(path)
		meta := frontMatter(string(src))
		for _, f := range skipFeatures {
			if strings.Contains(meta["features"], f) {
				st.skip++
				return nil
			}
		}
		if strings.Contains(meta["flags"], "module") || strings.Contains(meta["flags"], "async") {
			st.skip++
			return nil
		}
		if err := runTest262(compile, string(src), meta); err != nil {
			st.fail++
			failed = append(failed, rel+": "+firstLine(err.Error()))
		} else {
			st.pass++
		}
		return nil
	})
	var groups []string
	for g := range stats {
		groups = append(groups, g)
	}
	sort.Strings(groups)
	var sb strings.Builder
	tp, tt := 0, 0
	for _, g := range groups {
		s := stats[g]
		fmt.Fprintf(&sb, "%-20s %4d/%-4d passed (%d not run)\n", g, s.pass, s.pass+s.fail, s.skip)
		tp += s.pass
		tt += s.pass + s.fail
	}
	fmt.Fprintf(&sb, "%-20s %4d/%-4d passed\n", "total", tp, tt)
	t.Logf("test262 intl402:\n%s", sb.String())
	if out := os.Getenv("BEXT_TEST262_FAILURES"); out != "" {
		os.WriteFile(out, []byte(strings.Join(failed, "\n")+"\n"), 0o644)
	}
}

func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}

var fmRe = regexp.MustCompile(`(?s)/\*---(.*?)---\*/`)

// frontMatter reads the YAML keys test262 uses (as flat strings).
func frontMatter(src string) map[string]string {
	out := map[string]string{}
	m := fmRe.FindStringSubmatch(src)
	if m == nil {
		return out
	}
	key := ""
	for _, line := range strings.Split(m[1], "\n") {
		if line == "" {
			continue
		}
		if line[0] != ' ' && strings.Contains(line, ":") {
			i := strings.IndexByte(line, ':')
			key = line[:i]
			out[key] = strings.TrimSpace(line[i+1:])
			continue
		}
		if key != "" {
			out[key] += " " + strings.TrimSpace(line)
		}
	}
	return out
}

func runTest262(compile func(string) *goja.Program, src string, meta map[string]string) (err error) {
	rt := goja.New()
	if err := Install(rt, Options{DefaultLocale: "en-US", TimeZone: time.UTC}); err != nil {
		return err
	}
	timer := time.AfterFunc(10*time.Second, func() { rt.Interrupt("timeout") })
	defer timer.Stop()
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("panic: %v", p)
		}
	}()
	incs := []string{"assert.js", "sta.js"}
	if s := meta["includes"]; s != "" {
		s = strings.NewReplacer("[", " ", "]", " ", ",", " ", "-", " ").Replace(s)
		incs = append(incs, strings.Fields(s)...)
	}
	for _, inc := range incs {
		if _, err := rt.RunProgram(compile(inc)); err != nil {
			return fmt.Errorf("harness %s: %w", inc, err)
		}
	}
	if strings.Contains(meta["flags"], "onlyStrict") {
		src = "'use strict';\n" + src
	}
	_, runErr := rt.RunString(src)
	neg := meta["negative"]
	if neg != "" {
		want := regexp.MustCompile(`type:\s*(\w+)`).FindStringSubmatch(neg)
		if runErr == nil {
			return fmt.Errorf("expected %s", neg)
		}
		if want != nil && !strings.Contains(runErr.Error(), want[1]) {
			return fmt.Errorf("expected %s, got %v", want[1], runErr)
		}
		return nil
	}
	return runErr
}
