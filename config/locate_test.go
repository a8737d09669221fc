package config

import "testing"

func TestLocateKeys(t *testing.T) {
	text := `title = "x"          # line 1
[server]
addr = "a:1"
notes = """
jsc_workers = 0
[render]
"""
"quoted key" = 1
[render]   # line 9
dirs = [
  "a=b",
  "[server]",
]
jsc_workers = 2
lifecycle.max_requests = 3
inline = { x = 1 }
[[ render . "lifecycle" . recovery ]]
backoff_max_ms = 5
`
	lines := locateKeys(text)
	for key, want := range map[string]int{
		"title":                         1,
		"server":                        2,
		"server.addr":                   3,
		"server.notes":                  4,
		"server.quoted key":             8,
		"render":                        9,
		"render.dirs":                   10,
		"render.jsc_workers":            14,
		"render.lifecycle.max_requests": 15,
		"render.lifecycle.recovery[1]":  17, // an array of tables is named by element
		"render.lifecycle.recovery[1].backoff_max_ms": 18,
	} {
		if got := lines[key]; got != want {
			t.Errorf("line of %q = %d, want %d", key, got, want)
		}
	}
	if got := lineOf(lines, "render.inline.x"); got != 16 {
		t.Errorf("key inside an inline table: line %d, want the enclosing key's line 16", got)
	}
	if got := lineOf(lines, "admin.token"); got != 0 {
		t.Errorf("absent key: line %d, want 0", got)
	}
}

func TestSuggest(t *testing.T) {
	for key, want := range map[string]string{
		"render.lifecycle.max_request": `did you mean "max_requests"?`,
		"server.adr":                   `did you mean "addr"?`,
		"render.max_memory_mb":         `"max_memory_mb" belongs in [render.lifecycle]`,
		"server.zzzzzzzz":              "",
	} {
		if got := suggest(key); got != want {
			t.Errorf("suggest(%q) = %q, want %q", key, got, want)
		}
	}
}
