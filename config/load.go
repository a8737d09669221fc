package config

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"

	"github.com/BurntSushi/toml"
)

// Load reads the TOML file at path on top of Default(), so keys the file
// leaves out keep their defaults. It sets Path and Dir, makes app paths and
// watch_dirs absolute relative to Dir, and validates the result.
//
// A file that cannot be read gives an error wrapping the os error (so
// errors.Is(err, fs.ErrNotExist) works). Anything wrong inside the file —
// syntax, unknown keys, wrong types, impossible values — gives a *Error
// listing every problem with its key and line. Load does not read the
// environment; call ApplyEnv afterwards.
func Load(path string) (*Config, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("read config: %w (pass -config FILE to use another file)", err)
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, fmt.Errorf("read config: %w", err)
	}
	c := Default()
	c.Path, c.Dir = abs, filepath.Dir(abs)
	text := string(data)

	problems, parsed := decode(&c, text)
	if parsed {
		c.resolvePaths()
		problems = append(problems, c.validate()...)
	}
	if len(problems) == 0 {
		return &c, nil
	}
	lines := locateKeys(text)
	for i := range problems {
		if problems[i].Line == 0 && problems[i].Key != "" {
			problems[i].Line = lines[problems[i].Key]
		}
	}
	sortProblems(problems)
	return nil, &Error{File: path, Problems: problems}
}

// decode parses text and sets every known key on c, reporting syntax errors,
// unknown keys and wrong types. A key that is wrong keeps its default, so
// the remaining keys can still be validated and all problems reported at once.
// parsed is false when the text is not TOML at all.
func decode(c *Config, text string) (problems []Problem, parsed bool) {
	var raw map[string]any
	md, err := toml.Decode(text, &raw)
	if err != nil {
		return []Problem{syntaxProblem(err)}, false
	}
	bad := map[string]bool{} // keys already reported: their children are not
	root := reflect.ValueOf(c).Elem()
	elems := map[string]int{} // array of tables -> elements seen so far
	for _, k := range md.Keys() {
		key := strings.Join(k, ".")
		parent, _ := splitKey(key)
		if bad[key] || bad[parent] {
			bad[key] = true
			continue
		}
		f, known := schema[key]
		if !known {
			bad[key] = true
			msg := "unknown key"
			if s := suggest(key); s != "" {
				msg += "; " + s
			}
			problems = append(problems, Problem{Key: shown(key, elems), Msg: msg})
			continue
		}
		dst, v := root, lookup(raw, k)
		switch {
		case f.isArray():
			// A new [[array]] element: grow the slice by a zero element.
			elems[key]++
			arr := root.FieldByIndex(f.index)
			arr.Set(reflect.Append(arr, reflect.Zero(f.typ.Elem())))
			continue
		case f.array != "":
			n := elems[f.array]
			dst = root.FieldByIndex(schema[f.array].index).Index(n - 1)
			v = lookupIn(raw, k, f.array, n)
		}
		if msg := set(dst, f, v); msg != "" {
			bad[key] = true
			problems = append(problems, Problem{Key: shown(key, elems), Msg: msg})
		}
	}
	return problems, true
}

// shown is key as problems name it: a key of an array element carries the
// element's number ("cache.rule[2].max_age").
func shown(key string, elems map[string]int) string {
	for array, n := range elems {
		if rest, ok := strings.CutPrefix(key, array+"."); ok {
			return elementKey(array, n) + "." + rest
		}
	}
	return key
}

// lookupIn finds the value of key path inside element n of array.
func lookupIn(raw map[string]any, path []string, array string, n int) any {
	ap := strings.Split(array, ".")
	arr, ok := lookup(raw, ap).([]map[string]any)
	if !ok || n < 1 || n > len(arr) {
		return nil
	}
	return lookup(arr[n-1], path[len(ap):])
}

// lookup finds the value of a key path in the decoded document.
func lookup(raw map[string]any, path []string) any {
	var v any = raw
	for _, p := range path {
		m, ok := v.(map[string]any)
		if !ok {
			return nil
		}
		v = m[p]
	}
	return v
}

// syntaxProblem turns the parser's error into a Problem carrying its line.
func syntaxProblem(err error) Problem {
	var pe toml.ParseError
	if errors.As(err, &pe) {
		return Problem{Line: pe.Position.Line, Msg: "syntax error: " + pe.Message}
	}
	return Problem{Msg: err.Error()}
}
