package devserver

import (
	"path/filepath"
	"testing"
)

func TestClassify(t *testing.T) {
	app := filepath.FromSlash("/app")
	p := func(rel string) string { return filepath.Join(app, filepath.FromSlash(rel)) }
	in := Inputs{
		Server: map[string]bool{
			p("src/App.tsx"):                    true,
			p("src/components/Header.tsx"):      true,
			p("src/styles/server-imported.css"): true,
		},
		Client: map[string]bool{
			p("src/client.tsx"): true,
			p("src/logo.svg"):   true,
			p("src/App.tsx"):    true, // shared by both bundles: server wins
		},
		PublicDir:  p("public"),
		ConfigFile: p("config.toml"),
	}
	tests := []struct {
		name      string
		paths     []string
		want      Change
		wantCause string
	}{
		{"empty batch", nil, ChangeNone, ""},
		{"unrelated file", []string{p("README.md")}, ChangeNone, ""},
		{"image not imported anywhere", []string{p("src/unused.png")}, ChangeNone, ""},
		{"css not in server inputs", []string{p("src/styles/app.css")}, ChangeClient, p("src/styles/app.css")},
		{"CSS extension case-insensitive", []string{p("src/A.CSS")}, ChangeClient, p("src/A.CSS")},
		{"client bundle input", []string{p("src/client.tsx")}, ChangeClient, p("src/client.tsx")},
		{"client asset input", []string{p("src/logo.svg")}, ChangeClient, p("src/logo.svg")},
		{"public file", []string{p("public/favicon.ico")}, ChangeClient, p("public/favicon.ico")},
		{"public js is static, not source", []string{p("public/vendor/x.js")}, ChangeClient, p("public/vendor/x.js")},
		{"sibling of public dir is not public", []string{p("publicity/x.png")}, ChangeNone, ""},
		{"server input", []string{p("src/components/Header.tsx")}, ChangeServer, p("src/components/Header.tsx")},
		{"input of both bundles", []string{p("src/App.tsx")}, ChangeServer, p("src/App.tsx")},
		{"css imported by server code", []string{p("src/styles/server-imported.css")}, ChangeServer, p("src/styles/server-imported.css")},
		{"new .tsx not yet an input", []string{p("src/New.tsx")}, ChangeServer, p("src/New.tsx")},
		{"new .json", []string{p("src/data.json")}, ChangeServer, p("src/data.json")},
		{"new .mjs", []string{p("lib/x.mjs")}, ChangeServer, p("lib/x.mjs")},
		{"new .cjs", []string{p("lib/x.cjs")}, ChangeServer, p("lib/x.cjs")},
		{"new .js", []string{p("lib/x.js")}, ChangeServer, p("lib/x.js")},
		{"new .jsx", []string{p("lib/x.jsx")}, ChangeServer, p("lib/x.jsx")},
		{"new .ts", []string{p("lib/x.ts")}, ChangeServer, p("lib/x.ts")},
		{"config file", []string{p("config.toml")}, ChangeConfig, p("config.toml")},
		{"other toml is nothing", []string{p("other.toml")}, ChangeNone, ""},
		{
			"most severe wins, whatever the order",
			[]string{p("public/a.png"), p("src/components/Header.tsx"), p("src/b.css")},
			ChangeServer, p("src/components/Header.tsx"),
		},
		{
			"config beats server",
			[]string{p("config.toml"), p("src/App.tsx")},
			ChangeConfig, p("config.toml"),
		},
		{
			"first path of the worst severity is the cause",
			[]string{p("README.md"), p("src/App.tsx"), p("src/components/Header.tsx")},
			ChangeServer, p("src/App.tsx"),
		},
		{"unclean path still matches", []string{app + "/src/./components/../components/Header.tsx"}, ChangeServer, app + "/src/./components/../components/Header.tsx"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, cause := Classify(tt.paths, in)
			if got != tt.want || cause != tt.wantCause {
				t.Errorf("Classify(%v) = %v, %q; want %v, %q", tt.paths, got, cause, tt.want, tt.wantCause)
			}
		})
	}
}

func TestClassifyWithoutPublicOrConfig(t *testing.T) {
	// Empty PublicDir and ConfigFile must not match everything (or "").
	got, cause := Classify([]string{"/app/x.png", "/app/config.toml"}, Inputs{})
	if got != ChangeNone || cause != "" {
		t.Fatalf("got %v, %q; want none", got, cause)
	}
}

func TestChangeSeverityOrderAndString(t *testing.T) {
	order := []Change{ChangeNone, ChangeClient, ChangeServer, ChangeConfig}
	names := []string{"none", "client", "server", "config"}
	for i, c := range order {
		if i > 0 && !(order[i-1] < c) {
			t.Errorf("%v is not more severe than %v", c, order[i-1])
		}
		if c.String() != names[i] {
			t.Errorf("String() = %q, want %q", c.String(), names[i])
		}
	}
	if s := Change(9).String(); s != "Change(9)" {
		t.Errorf("unknown change String() = %q", s)
	}
}

func TestRelPath(t *testing.T) {
	base := filepath.FromSlash("/home/u/app")
	tests := []struct{ p, want string }{
		{filepath.FromSlash("/home/u/app/src/components/Header.tsx"), "src/components/Header.tsx"},
		{filepath.FromSlash("/home/u/app/config.toml"), "config.toml"},
		{filepath.FromSlash("/home/u/app"), "."},
		{filepath.FromSlash("/home/u/app2/x.ts"), filepath.FromSlash("/home/u/app2/x.ts")},
		{filepath.FromSlash("/home/u"), filepath.FromSlash("/home/u")},
		{filepath.FromSlash("/home/u/app/..data/x.ts"), "..data/x.ts"},
	}
	for _, tt := range tests {
		if got := RelPath(base, tt.p); got != tt.want {
			t.Errorf("RelPath(%q, %q) = %q, want %q", base, tt.p, got, tt.want)
		}
	}
}
