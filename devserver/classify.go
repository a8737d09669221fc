package devserver

import (
	"path/filepath"
	"strconv"
	"strings"
)

// Change is what a batch of file changes requires, in increasing severity.
// A batch is handled by its most severe change: a batch that touches both a
// stylesheet and a server component needs the server rebuild, which also
// covers the stylesheet.
type Change int

const (
	// ChangeNone: nothing any bundle or the server depends on (README.md,
	// a deleted editor file). No rebuild.
	ChangeNone Change = iota
	// ChangeClient: CSS, a client bundle input, or a public file. Rebuild
	// the client and reload the browser; workers keep running.
	ChangeClient
	// ChangeServer: a server bundle input (or a new source file that may
	// become one). Rebuild, boot-check the new bundle, rolling restart.
	ChangeServer
	// ChangeConfig: the config file. Re-apply the configuration.
	ChangeConfig
)

func (c Change) String() string {
	switch c {
	case ChangeNone:
		return "none"
	case ChangeClient:
		return "client"
	case ChangeServer:
		return "server"
	case ChangeConfig:
		return "config"
	}
	return "Change(" + strconv.Itoa(int(c)) + ")"
}

// Inputs is what the last successful build depends on. All paths are
// absolute and clean, like the paths the Watcher reports; the orchestrator
// converts esbuild's metafile input keys (relative to the build's working
// directory) before filling Server and Client.
type Inputs struct {
	Server     map[string]bool // server bundle metafile inputs
	Client     map[string]bool // client bundle metafile inputs
	PublicDir  string          // static files served as-is; "" if none
	ConfigFile string          // config.toml; "" if none
}

// sourceExts are the extensions esbuild resolves imports to. A new file with
// one of them is not yet in any metafile, but the edit that imports it may
// already be in the same batch, or come next; counting it as a server change
// is the safe default (a needless restart costs a second, a missed one
// serves stale code).
var sourceExts = map[string]bool{
	".js": true, ".jsx": true, ".ts": true, ".tsx": true,
	".mjs": true, ".cjs": true, ".json": true,
}

// Classify returns the most severe change among paths (as reported by the
// Watcher, so all under a watched folder) and the first path, in the given
// order, that has that severity. It returns (ChangeNone, "") when nothing
// needs a rebuild.
func Classify(paths []string, c Inputs) (Change, string) {
	worst, cause := ChangeNone, ""
	for _, p := range paths {
		if ch := classifyOne(filepath.Clean(p), c); ch > worst {
			worst, cause = ch, p
		}
	}
	return worst, cause
}

func classifyOne(p string, c Inputs) Change {
	switch {
	case c.ConfigFile != "" && p == filepath.Clean(c.ConfigFile):
		return ChangeConfig
	case c.Server[p]:
		return ChangeServer
	case c.Client[p]:
		return ChangeClient
	case c.PublicDir != "" && within(filepath.Clean(c.PublicDir), p):
		return ChangeClient
	}
	ext := strings.ToLower(filepath.Ext(p))
	switch {
	case ext == ".css":
		return ChangeClient
	case sourceExts[ext]:
		return ChangeServer
	}
	return ChangeNone
}

// RelPath returns p relative to base with forward slashes, for log lines
// such as "[bext] Workers restarted (file change: src/components/Header.tsx)".
// A path outside base is returned unchanged (absolute), since "../../x" would
// say less than the real location.
func RelPath(base, p string) string {
	rel, err := filepath.Rel(base, p)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return p
	}
	return filepath.ToSlash(rel)
}
