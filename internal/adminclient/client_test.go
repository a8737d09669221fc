package adminclient

import (
	"os"
	"path/filepath"
	"testing"
)

// The admin address comes from -addr, then BEXT_ADMIN_ADDR, then the
// config's [admin] addr (default 127.0.0.1:3001); only a config that puts
// admin on the public listener falls back to BEXT_ADDR and [server] addr.
func TestNewFindsTheAdminAddress(t *testing.T) {
	dir := t.TempDir()
	os.MkdirAll(filepath.Join(dir, "src"), 0o755)
	os.WriteFile(filepath.Join(dir, "src", "server.jsx"), []byte("globalThis.render=()=>''"), 0o644)
	write := func(name, text string) string {
		p := filepath.Join(dir, name)
		os.WriteFile(p, []byte(text), 0o644)
		return p
	}
	sep := write("sep.toml", "[admin]\naddr = \"127.0.0.1:4001\"\n[server]\naddr = \"127.0.0.1:4000\"\n")
	shared := write("shared.toml", "[admin]\naddr = \"\"\ntoken = \"t\"\n[server]\naddr = \"127.0.0.1:4000\"\n")
	env := func(kv ...string) func(string) string {
		return func(k string) string {
			for i := 0; i+1 < len(kv); i += 2 {
				if kv[i] == k {
					return kv[i+1]
				}
			}
			return ""
		}
	}
	t.Chdir(dir) // no config.toml here: defaults unless -config
	for _, tc := range []struct {
		name, flag, cfg string
		env             func(string) string
		want, token     string
	}{
		{"defaults", "", "", env(), "http://127.0.0.1:3001", ""},
		{"flag wins", "example.com:9", sep, env("BEXT_ADMIN_ADDR", "127.0.0.1:5"), "http://example.com:9", ""},
		{"env admin addr", "", sep, env("BEXT_ADMIN_ADDR", "127.0.0.1:5", "BEXT_ADDR", "127.0.0.1:6"), "http://127.0.0.1:5", ""},
		{"config admin addr over BEXT_ADDR", "", sep, env("BEXT_ADDR", "127.0.0.1:6"), "http://127.0.0.1:4001", ""},
		{"shared listener: BEXT_ADDR", "", shared, env("BEXT_ADDR", "127.0.0.1:6"), "http://127.0.0.1:6", "t"},
		{"shared listener: server addr", "", shared, env(), "http://127.0.0.1:4000", "t"},
		{"token from env", "", shared, env("BEXT_ADMIN_TOKEN", "e"), "http://127.0.0.1:4000", "e"},
		{"unix socket", "unix:/run/x.sock", "", env(), "http://unix", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c, err := New(tc.flag, tc.cfg, tc.env)
			if err != nil {
				t.Fatal(err)
			}
			if c.base != tc.want || c.token != tc.token {
				t.Fatalf("base %q token %q, want %q %q", c.base, c.token, tc.want, tc.token)
			}
		})
	}
}
