package app

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"bext/config"
	"bext/engine"
	"bext/render"
)

// manifest describes a `bext build` output folder.
type manifest struct {
	Version  int       `json:"version"`
	BuiltAt  time.Time `json:"built_at"`
	Server   string    `json:"server"` // file name of the server bundle
	Hash     string    `json:"hash"`   // of the server bundle
	ClientJS []string  `json:"client_js"`
	CSS      []string  `json:"client_css"`
	Inputs   []string  `json:"inputs"` // source files, absolute
	Config   string    `json:"config"`
}

// Bundle is a built app: the server code and the client assets.
type Bundle struct {
	ServerCode []byte
	Name       string // shown in JS stacks
	Inputs     []string
	Assets     *render.Assets
	JS, CSS    []string // asset URLs for the page
	From       string   // where it came from, for the start-up line
	Warnings   []string
	FastPaths  []string // rewrites applied to library code, "name package/file" (engine.Bundle.FastPaths)
}

// ServerBundle is a bundle of server code alone (no client assets), for
// Options.Bundle.
func ServerBundle(name string, code []byte) *Bundle {
	return &Bundle{ServerCode: code, Name: name, From: "given " + name,
		Assets: &render.Assets{Files: map[string][]byte{}, Hashed: true, ModTime: time.Now()}}
}

// Build bundles the server entry and, if set, the client entry.
func Build(cfg *config.Config, dev bool) (*Bundle, error) {
	start := time.Now()
	sb, err := engine.BuildServer(buildOptions(cfg, cfg.App.ServerEntry, dev))
	if err != nil {
		return nil, err
	}
	a := &Bundle{ServerCode: sb.Code, Name: rel(cfg.Dir, cfg.App.ServerEntry), Inputs: sb.Inputs, Warnings: sb.Warnings, FastPaths: sb.FastPaths,
		Assets: &render.Assets{Files: map[string][]byte{}, Hashed: !dev, ModTime: time.Now()}}
	if cfg.App.ClientEntry != "" {
		cb, err := engine.BuildClient(buildOptions(cfg, cfg.App.ClientEntry, dev))
		if err != nil {
			return nil, err
		}
		a.addClient(cb)
		a.Warnings = append(a.Warnings, cb.Warnings...)
	}
	a.From = fmt.Sprintf("built %s in %s", a.Name, time.Since(start).Round(time.Millisecond))
	return a, nil
}

func (a *Bundle) addClient(cb *engine.Bundle) {
	a.Assets.Files = cb.Files
	a.JS, a.CSS = assetURLs(cb.Files)
}

// assetURLs lists the URLs of the .js and .css files among files, sorted.
func assetURLs(files map[string][]byte) (js, css []string) {
	for _, n := range sortedKeys(files) {
		switch filepath.Ext(n) {
		case ".js":
			js = append(js, render.Prefix+n)
		case ".css":
			css = append(css, render.Prefix+n)
		}
	}
	return js, css
}

// Load uses the `bext build` output in [app] out_dir when it exists and
// is newer than every source it was built from; otherwise it builds.
func Load(cfg *config.Config) (*Bundle, error) {
	a, why := loadBuilt(cfg)
	if a != nil {
		return a, nil
	}
	b, err := Build(cfg, false)
	if err != nil {
		return nil, err
	}
	if why != "" {
		b.From += " (" + why + ")"
	}
	return b, nil
}

// loadBuilt reads out_dir; it returns nil and the reason when it can't be used.
func loadBuilt(cfg *config.Config) (*Bundle, string) {
	dir := cfg.App.OutDir
	data, err := os.ReadFile(filepath.Join(dir, "manifest.json"))
	if err != nil {
		return nil, ""
	}
	var m manifest
	if err := json.Unmarshal(data, &m); err != nil || m.Version != 1 {
		return nil, "ignored " + rel(cfg.Dir, dir) + ": unreadable manifest"
	}
	for _, in := range append([]string{cfg.Path}, m.Inputs...) {
		if fi, err := os.Stat(in); err == nil && fi.ModTime().After(m.BuiltAt) {
			return nil, "ignored " + rel(cfg.Dir, dir) + ": " + rel(cfg.Dir, in) + " changed since it was built"
		}
	}
	code, err := os.ReadFile(filepath.Join(dir, m.Server))
	if err != nil {
		return nil, "ignored " + rel(cfg.Dir, dir) + ": " + err.Error()
	}
	a := &Bundle{ServerCode: code, Name: m.Server, Inputs: m.Inputs,
		Assets: &render.Assets{Files: map[string][]byte{}, Hashed: true, ModTime: m.BuiltAt}}
	files := map[string][]byte{}
	for _, n := range append(append([]string{}, m.ClientJS...), m.CSS...) {
		b, err := os.ReadFile(filepath.Join(dir, "client", n))
		if err != nil {
			return nil, "ignored " + rel(cfg.Dir, dir) + ": " + err.Error()
		}
		files[n] = b
	}
	a.addClient(&engine.Bundle{Files: files})
	a.From = fmt.Sprintf("using %s built %s", rel(cfg.Dir, dir), m.BuiltAt.Format(time.RFC3339))
	return a, ""
}

// Write writes a to [app] out_dir with its manifest (bext build) and
// returns the folder.
func (a *Bundle) Write(cfg *config.Config) (string, error) {
	dir := cfg.App.OutDir
	if err := os.RemoveAll(dir); err != nil {
		return "", err
	}
	if err := os.MkdirAll(filepath.Join(dir, "client"), 0o755); err != nil {
		return "", err
	}
	m := manifest{Version: 1, BuiltAt: time.Now(), Server: "server.js", Hash: hashOf(a.ServerCode), Inputs: a.Inputs, Config: cfg.Path}
	if err := os.WriteFile(filepath.Join(dir, m.Server), a.ServerCode, 0o644); err != nil {
		return "", err
	}
	for n, b := range a.Assets.Files {
		if err := os.WriteFile(filepath.Join(dir, "client", n), b, 0o644); err != nil {
			return "", err
		}
		if strings.HasSuffix(n, ".css") {
			m.CSS = append(m.CSS, n)
		} else if strings.HasSuffix(n, ".js") {
			m.ClientJS = append(m.ClientJS, n)
		}
	}
	sort.Strings(m.CSS)
	sort.Strings(m.ClientJS)
	data, _ := json.MarshalIndent(m, "", "  ")
	return dir, os.WriteFile(filepath.Join(dir, "manifest.json"), append(data, '\n'), 0o644)
}

func sortedKeys[V any](m map[string]V) []string {
	ks := make([]string, 0, len(m))
	for k := range m {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	return ks
}

// rel shows p relative to base when it is inside it.
func rel(base, p string) string {
	if r, err := filepath.Rel(base, p); err == nil && !strings.HasPrefix(r, "..") {
		return r
	}
	return p
}

func hashOf(b []byte) string {
	h := sha256.Sum256(b)
	return hex.EncodeToString(h[:6])
}
