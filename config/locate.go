package config

import "strings"

// BurntSushi/toml v1.6 records where each key is but does not export it, so
// locateKeys re-reads the text: it tracks the current [table] / [[array]]
// header and records the line of every `key =` (bare, quoted or dotted). It
// skips the inside of multi-line strings and arrays so that text there is
// never mistaken for a key. Keys inside inline tables are not recorded;
// lineOf falls back to the enclosing key.
func locateKeys(text string) map[string]int {
	lines := map[string]int{}
	var sc valueScanner
	var table []string
	elems := map[string]int{} // array of tables -> elements seen
	for n, line := range strings.Split(text, "\n") {
		if sc.open() {
			sc.scan(line)
			continue
		}
		s := strings.TrimSpace(line)
		switch {
		case s == "" || s[0] == '#':
		case s[0] == '[':
			hdr := strings.TrimLeft(s, "[")
			if parts, _, ok := parseKey(hdr); ok {
				name := strings.Join(parts, ".")
				if strings.HasPrefix(s, "[[") {
					elems[name]++
				}
				table = indexed(parts, elems)
				record(lines, table, n+1)
			}
		default:
			parts, rest, ok := parseKey(s)
			rest = strings.TrimLeft(rest, " \t")
			if !ok || !strings.HasPrefix(rest, "=") {
				continue
			}
			full := append(append([]string(nil), table...), parts...)
			record(lines, full, n+1)
			sc.scan(rest[1:])
		}
	}
	return lines
}

// indexed names a table inside an array of tables by its element:
// [[cache.rule]] → cache.rule[2], [apps.render] after the 3rd [[apps]] →
// apps[3].render, as problems name them.
func indexed(parts []string, elems map[string]int) []string {
	out := append([]string(nil), parts...)
	for k := len(parts); k > 0; k-- {
		if n := elems[strings.Join(parts[:k], ".")]; n > 0 {
			out = append([]string{elementKey(strings.Join(parts[:k], "."), n)}, parts[k:]...)
			return out
		}
	}
	return out
}

// record keeps the first line a key appears on (a duplicate is a syntax
// error the parser reports itself).
func record(lines map[string]int, parts []string, line int) {
	k := strings.Join(parts, ".")
	if _, ok := lines[k]; !ok {
		lines[k] = line
	}
}

// lineOf returns the line of key, or of its nearest enclosing key or table
// written in the file, or 0.
func lineOf(lines map[string]int, key string) int {
	for key != "" {
		if l, ok := lines[key]; ok {
			return l
		}
		key, _ = splitKey(key)
	}
	return 0
}

// parseKey reads a possibly dotted, possibly quoted key from the start of s
// and returns its parts and the text after it.
func parseKey(s string) (parts []string, rest string, ok bool) {
	for {
		s = strings.TrimLeft(s, " \t")
		if s == "" {
			return nil, "", false
		}
		var part string
		switch q := s[0]; q {
		case '"', '\'':
			end := closingQuote(s[1:], q)
			if end < 0 {
				return nil, "", false
			}
			part, s = s[1:1+end], s[2+end:]
		default:
			i := 0
			for i < len(s) && isBareKeyChar(s[i]) {
				i++
			}
			if i == 0 {
				return nil, "", false
			}
			part, s = s[:i], s[i:]
		}
		parts = append(parts, part)
		t := strings.TrimLeft(s, " \t")
		if !strings.HasPrefix(t, ".") {
			return parts, s, true
		}
		s = t[1:]
	}
}

// closingQuote returns the index in s of the quote q that closes a string,
// honouring backslash escapes in basic ("…") strings; -1 if none.
func closingQuote(s string, q byte) int {
	for i := 0; i < len(s); i++ {
		switch {
		case s[i] == '\\' && q == '"':
			i++
		case s[i] == q:
			return i
		}
	}
	return -1
}

func isBareKeyChar(c byte) bool {
	return c == '_' || c == '-' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

// valueScanner follows a value across lines: whether a multi-line string
// or an array / inline table is still open at the end of a line.
type valueScanner struct {
	inString string // `"""` or `'''` while inside a multi-line string
	depth    int    // open [ and { outside strings
}

func (v *valueScanner) open() bool { return v.inString != "" || v.depth > 0 }

func (v *valueScanner) scan(s string) {
	for i := 0; i < len(s); i++ {
		if v.inString != "" {
			if s[i] == '\\' && v.inString == `"""` {
				i++
			} else if strings.HasPrefix(s[i:], v.inString) {
				i += 2
				v.inString = ""
			}
			continue
		}
		switch c := s[i]; c {
		case '#':
			return
		case '"', '\'':
			if delim := strings.Repeat(string(c), 3); strings.HasPrefix(s[i:], delim) {
				v.inString = delim
				i += 2
				continue
			}
			end := closingQuote(s[i+1:], c)
			if end < 0 {
				return // unterminated: the parser reports it
			}
			i += 1 + end
		case '[', '{':
			v.depth++
		case ']', '}':
			if v.depth > 0 {
				v.depth--
			}
		}
	}
}
