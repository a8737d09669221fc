package config

import (
	"fmt"
	"reflect"
	"strconv"
	"strings"
)

// field is one key the file may contain: a table (a struct) or a value.
type field struct {
	index []int        // path of struct field indexes from Config
	typ   reflect.Type // Go type of the field
	// Numbers have bounds, from the field's `range:"min,max"` tag; zero
	// (the `zero` tag) says what the special low value means.
	min, max float64
	zero     string
	// array is the key of the array of tables ([[cache.rule]]) a field
	// belongs to ("" for none); index then starts at the element struct.
	array string
	// inherit names the top-level table an element's table starts as a
	// copy of ([apps.render] inherits [render]).
	inherit string
}

// isArray reports whether f is an array of tables ([[name]]).
func (f field) isArray() bool {
	return f.typ.Kind() == reflect.Slice && f.typ.Elem().Kind() == reflect.Struct
}

// isNumber reports whether f holds an integer or a float.
func (f field) isNumber() bool {
	k := f.typ.Kind()
	return k >= reflect.Int && k <= reflect.Int64 || k == reflect.Float32 || k == reflect.Float64
}

func (f field) isTable() bool { return f.typ.Kind() == reflect.Struct }

// schema maps every dotted key ("render.lifecycle.max_requests") to its
// field. It is derived from the struct tags, so adding a field to a struct
// is all it takes to accept a new key.
var schema = buildSchema()

func buildSchema() map[string]field {
	s := map[string]field{}
	walkStruct(reflect.TypeFor[Config](), "", nil, "", s)
	return s
}

func walkStruct(t reflect.Type, prefix string, index []int, array string, s map[string]field) {
	for i := range t.NumField() {
		sf := t.Field(i)
		name, opt, _ := strings.Cut(sf.Tag.Get("toml"), ",")
		if sf.Anonymous && name == "" && opt == "inline" {
			// The embedded struct's keys sit directly in this table.
			walkStruct(sf.Type, prefix, append(append([]int(nil), index...), i), array, s)
			continue
		}
		if name == "" || name == "-" {
			continue
		}
		key := name
		if prefix != "" {
			key = prefix + "." + name
		}
		idx := append(append([]int(nil), index...), i)
		f := field{index: idx, typ: sf.Type, zero: sf.Tag.Get("zero"), array: array, inherit: sf.Tag.Get("inherit")}
		if r := sf.Tag.Get("range"); r != "" {
			lo, hi, _ := strings.Cut(r, ",")
			var err1, err2 error
			f.min, err1 = strconv.ParseFloat(lo, 64)
			f.max, err2 = strconv.ParseFloat(hi, 64)
			if err1 != nil || err2 != nil || f.min > f.max {
				panic(fmt.Sprintf("config: field %s has a bad range tag %q", key, r))
			}
		} else if f.isNumber() {
			// Every number has bounds: caught by any test that loads a file.
			panic(fmt.Sprintf("config: number %s has no range tag", key))
		}
		s[key] = f
		switch k := sf.Type.Kind(); {
		case k == reflect.Struct:
			walkStruct(sf.Type, key, idx, array, s)
		case k == reflect.Slice && sf.Type.Elem().Kind() == reflect.Struct:
			if array != "" {
				panic(fmt.Sprintf("config: %s is an array of tables inside another", key))
			}
			walkStruct(sf.Type.Elem(), key, nil, key, s)
		case k == reflect.Map && sf.Type.Key().Kind() == reflect.String && sf.Type.Elem().Kind() == reflect.String:
			// A table of free names to strings ([app.env]).
		case k == reflect.Slice && sf.Type.Elem().Kind() == reflect.String,
			k == reflect.String, k == reflect.Bool,
			k >= reflect.Int && k <= reflect.Int64,
			k == reflect.Float32 || k == reflect.Float64:
		default:
			// A programming error, caught by any test that loads a file.
			panic(fmt.Sprintf("config: field %s has type %s, which Load cannot set", key, sf.Type))
		}
	}
}

// siblings returns the value and table names directly under table
// ("" for the top level).
func siblings(table string) []string {
	var out []string
	for k := range schema {
		parent, name := splitKey(k)
		if parent == table {
			out = append(out, name)
		}
	}
	return out
}

// splitKey splits "a.b.c" into "a.b" and "c".
func splitKey(key string) (parent, name string) {
	if i := strings.LastIndexByte(key, '.'); i >= 0 {
		return key[:i], key[i+1:]
	}
	return "", key
}

// set stores the decoded TOML value v into the field f of root (the
// Config, or an element of an array of tables), or says why it cannot: the
// value has the wrong type or does not fit.
func set(root reflect.Value, f field, v any) string {
	dst := root.FieldByIndex(f.index)
	switch k := f.typ.Kind(); {
	case k >= reflect.Int && k <= reflect.Int64:
		n, ok := v.(int64)
		if !ok {
			return "must be an integer, got " + describe(v)
		}
		if dst.OverflowInt(n) {
			return fmt.Sprintf("%d is too large", n)
		}
		dst.SetInt(n)
	case k == reflect.Float32 || k == reflect.Float64:
		switch n := v.(type) {
		case float64:
			dst.SetFloat(n)
		case int64:
			dst.SetFloat(float64(n))
		default:
			return "must be a number, got " + describe(v)
		}
	case k == reflect.String:
		s, ok := v.(string)
		if !ok {
			return "must be a string, got " + describe(v)
		}
		dst.SetString(s)
	case k == reflect.Bool:
		b, ok := v.(bool)
		if !ok {
			return "must be true or false, got " + describe(v)
		}
		dst.SetBool(b)
	case k == reflect.Slice:
		return setStrings(dst, v)
	case k == reflect.Map:
		return setStringMap(dst, v)
	case k == reflect.Struct:
		if _, ok := v.(map[string]any); !ok {
			return "must be a table, got " + describe(v)
		}
	}
	return ""
}

// elementKey names element n (1-based) of array: "cache.rule[2]".
func elementKey(array string, n int) string { return array + "[" + strconv.Itoa(n) + "]" }

func setStrings(dst reflect.Value, v any) string {
	arr, ok := v.([]any)
	if !ok {
		return `must be an array of strings like ["src"], got ` + describe(v)
	}
	out := make([]string, 0, len(arr))
	for i, e := range arr {
		s, ok := e.(string)
		if !ok {
			return fmt.Sprintf("element %d must be a string, got %s", i, describe(e))
		}
		out = append(out, s)
	}
	dst.Set(reflect.ValueOf(out))
	return ""
}

// setStringMap starts a table of strings ([app.env]); its names are set
// one by one (setMapEntry), so a bad one is reported with its own key.
func setStringMap(dst reflect.Value, v any) string {
	if _, ok := v.(map[string]any); !ok {
		return `must be a table of strings like { API_ORIGIN = "https://api.example.com" }, got ` + describe(v)
	}
	dst.Set(reflect.ValueOf(map[string]string{}))
	return ""
}

// setMapEntry sets name in the table of strings dst; in an array element
// the value is looked up there (inElem, elem).
func setMapEntry(dst reflect.Value, name string, v any, inElem bool, elem func() any) string {
	if inElem {
		v = elem()
	}
	s, ok := v.(string)
	if !ok {
		return fmt.Sprintf("must be a string (quote numbers and booleans: %s = \"…\"), got %s", name, describe(v))
	}
	if dst.IsNil() {
		dst.Set(reflect.ValueOf(map[string]string{}))
	}
	dst.SetMapIndex(reflect.ValueOf(name), reflect.ValueOf(s))
	return ""
}

// isMap reports whether f is a table of free names ([app.env]).
func (f field) isMap() bool { return f.typ.Kind() == reflect.Map }

// describe names a decoded TOML value for an error message.
func describe(v any) string {
	switch v := v.(type) {
	case string:
		return fmt.Sprintf("string %q", v)
	case int64:
		return fmt.Sprintf("integer %d", v)
	case float64:
		return fmt.Sprintf("float %v", v)
	case bool:
		return fmt.Sprintf("boolean %v", v)
	case []any:
		return "an array"
	case map[string]any:
		return "a table"
	case []map[string]any:
		return "an array of tables"
	default:
		return fmt.Sprintf("a date/time (%v)", v)
	}
}
