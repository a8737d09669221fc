package config

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

const repoConfig = "../config.toml"

// The documented config.toml at the repository root and Default() must not
// drift apart: every key there carries its default, except the app paths,
// which point at the embedded example app. This decodes without validating,
// so it holds whether or not the example's files exist yet.
func TestRepoConfigTomlDocumentsDefaults(t *testing.T) {
	text, err := os.ReadFile(repoConfig)
	if err != nil {
		t.Fatal(err)
	}
	got := Default()
	if ps, _ := decode(&got, string(text)); len(ps) > 0 {
		t.Fatalf("config.toml does not decode: %+v", ps)
	}
	got.present = nil
	want := Default()
	want.App.ServerEntry = "examples/basic/src/server.jsx"
	want.App.ClientEntry = "examples/basic/src/client.js"
	want.App.PublicDir = "examples/basic/public"
	if !reflect.DeepEqual(got, want) {
		t.Errorf("config.toml and Default() differ:\nfile    %+v\ndefault %+v", got, want)
	}
}

// Every key the structs accept is written in config.toml, so the file is a
// complete reference.
func TestRepoConfigTomlListsEveryKey(t *testing.T) {
	text, err := os.ReadFile(repoConfig)
	if err != nil {
		t.Fatal(err)
	}
	lines := locateKeys(string(text))
	// Arrays of tables ([[cache.rule]]) have no default elements: the file
	// documents them as a commented example, "# [[cache.rule]]" followed by
	// "# key = …" lines.
	commented := locateKeys(uncomment(string(text)))
	for key, f := range schema {
		switch {
		case f.isArray():
			if commented[elementKey(key, 1)] == 0 {
				t.Errorf("config.toml has no commented example of [[%s]]", key)
			}
		case f.array != "" && inheritsFrom(key) != "" && f.inherit == "":
			// a key of [render] overridden per element: documented under [render]
		case f.array != "":
			if commented[elementKey(f.array, 1)+strings.TrimPrefix(key, f.array)] == 0 {
				t.Errorf("config.toml's example of [[%s]] does not document %q", f.array, key)
			}
		case lines[key] == 0:
			t.Errorf("config.toml does not document %q", key)
		}
	}
}

// uncomment turns "# [[x]]" and "# key = v" lines into TOML.
func uncomment(text string) string {
	var out []string
	for _, l := range strings.Split(text, "\n") {
		if t, ok := strings.CutPrefix(strings.TrimSpace(l), "# "); ok && (strings.HasPrefix(t, "[") || strings.Contains(t, " = ")) {
			l = t
		}
		out = append(out, l)
	}
	return strings.Join(out, "\n")
}

// `bext serve -config config.toml` from the repository root must start.
func TestRepoConfigTomlLoads(t *testing.T) {
	c, err := Load(repoConfig)
	if err != nil {
		t.Fatal(err)
	}
	if want, _ := filepath.Abs("../examples/basic/src/server.jsx"); c.App.ServerEntry != want {
		t.Errorf("ServerEntry = %q, want %q", c.App.ServerEntry, want)
	}
}
