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
		c.deriveFleet()
		problems = append(problems, c.validate()...)
	}
	if len(problems) == 0 {
		return &c, nil
	}
	lines := locateKeys(text)
	for i := range problems {
		if problems[i].Line == 0 && problems[i].Key != "" {
			problems[i].Line = lineOf(lines, problems[i].Key)
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
	c.present = map[string]bool{}
	type deferred struct {
		n   int // element number, 1-based (the slice may grow meanwhile)
		f   field
		v   any
		key string
	}
	var later []deferred // keys of inheriting tables: set after the copy
	for _, k := range md.Keys() {
		key := strings.Join(k, ".")
		parent, _ := splitKey(key)
		if bad[key] || bad[parent] {
			bad[key] = true
			continue
		}
		if pf, ok := schema[parent]; ok && pf.isMap() {
			// A name inside [app.env]: its table was set first.
			dst := root
			if pf.array != "" {
				dst = root.FieldByIndex(schema[pf.array].index).Index(elems[pf.array] - 1)
			}
			if msg := setMapEntry(dst.FieldByIndex(pf.index), k[len(k)-1], lookup(raw, k), pf.array != "", func() any {
				return lookupIn(raw, k, pf.array, elems[pf.array])
			}); msg != "" {
				problems = append(problems, Problem{Key: shown(key, elems), Msg: msg})
			}
			continue
		}
		c.present[shown(key, elems)] = true
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
			// A new [[array]] element, starting from its defaults.
			elems[key]++
			arr := root.FieldByIndex(f.index)
			arr.Set(reflect.Append(arr, elementDefault(key, f.typ.Elem())))
			continue
		case f.array != "":
			n := elems[f.array]
			dst = root.FieldByIndex(schema[f.array].index).Index(n - 1)
			v = lookupIn(raw, k, f.array, n)
			if inheritsFrom(key) != "" {
				later = append(later, deferred{n, f, v, shown(key, elems)})
				continue
			}
		}
		if msg := set(dst, f, v); msg != "" {
			bad[key] = true
			problems = append(problems, Problem{Key: shown(key, elems), Msg: msg})
		}
	}
	c.inherit()
	for _, d := range later {
		if d.f.isTable() {
			continue
		}
		dst := root.FieldByIndex(schema[d.f.array].index).Index(d.n - 1)
		if msg := set(dst, d.f, d.v); msg != "" {
			problems = append(problems, Problem{Key: d.key, Msg: msg})
		}
	}
	return problems, true
}

// inheritsFrom returns the top-level table key's element table inherits
// from, when key lies in such a table ("apps.render.jsc_workers" →
// "render"), else "".
func inheritsFrom(key string) string {
	for k := key; k != ""; k, _ = splitKey(k) {
		if f, ok := schema[k]; ok && f.inherit != "" {
			return f.inherit
		}
	}
	return ""
}

// inherit sets every inheriting table of every array element to a copy of
// the top-level table it inherits from (before the element's own keys are
// set on top).
func (c *Config) inherit() {
	root := reflect.ValueOf(c).Elem()
	for _, f := range schema {
		if f.inherit == "" || f.array == "" {
			continue
		}
		from := root.FieldByIndex(schema[f.inherit].index)
		arr := root.FieldByIndex(schema[f.array].index)
		for n := range arr.Len() {
			arr.Index(n).FieldByIndex(f.index).Set(deepCopy(from))
		}
	}
}

// deepCopy copies a config struct, its slices included.
func deepCopy(v reflect.Value) reflect.Value {
	out := reflect.New(v.Type()).Elem()
	out.Set(v)
	for i := range v.NumField() {
		switch fv := v.Field(i); fv.Kind() {
		case reflect.Slice:
			if !fv.IsNil() {
				cp := reflect.MakeSlice(fv.Type(), fv.Len(), fv.Len())
				reflect.Copy(cp, fv)
				out.Field(i).Set(cp)
			}
		case reflect.Struct:
			out.Field(i).Set(deepCopy(fv))
		}
	}
	return out
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
