package config

import (
	"fmt"
	"sort"
	"strings"
)

// Problem is one thing wrong with a config file.
type Problem struct {
	// Key is the full dotted key, e.g. "render.lifecycle.max_requests";
	// "" when the problem is not tied to a key (a syntax error before any key).
	Key string
	// Line is the 1-based line of the key in the file; 0 when the key is not
	// written in the file (e.g. a default path that does not exist).
	Line int
	// Msg says what is wrong and, where it is not obvious, what to do.
	Msg string
}

// Error lists every problem found in one config file. Load returns it as a
// *Error so callers and tests can inspect each problem.
type Error struct {
	File     string // the path as given to Load
	Problems []Problem
}

// Error formats one problem per line as "file:line: [table] key: msg".
func (e *Error) Error() string {
	lines := make([]string, len(e.Problems))
	for i, p := range e.Problems {
		lines[i] = e.format(p)
	}
	return strings.Join(lines, "\n")
}

func (e *Error) format(p Problem) string {
	var b strings.Builder
	b.WriteString(e.File)
	if p.Line > 0 {
		fmt.Fprintf(&b, ":%d", p.Line)
	}
	b.WriteString(": ")
	if p.Key != "" {
		if i := strings.LastIndexByte(p.Key, '.'); i >= 0 {
			fmt.Fprintf(&b, "[%s] %s: ", p.Key[:i], p.Key[i+1:])
		} else {
			fmt.Fprintf(&b, "%s: ", p.Key)
		}
	}
	b.WriteString(p.Msg)
	return b.String()
}

// sortProblems orders problems as they appear in the file; problems without
// a line (keys absent from the file) come last, in the order found.
func sortProblems(ps []Problem) {
	sort.SliceStable(ps, func(i, j int) bool {
		li, lj := ps[i].Line, ps[j].Line
		if li == 0 || lj == 0 {
			return li != 0 && lj == 0
		}
		return li < lj
	})
}
