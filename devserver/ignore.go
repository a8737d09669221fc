package devserver

import (
	"path/filepath"
	"strings"
)

// ignoredName reports whether a file or folder with this base name is never
// worth a rebuild: dependency trees, VCS metadata, hidden files, and the temp
// and backup files editors write around a save (vim's 4913 probe and .swp/.swx
// swap files, emacs' foo~, .#lock and #autosave# files, JetBrains' safe-write
// copies, generic *.tmp). Watching them would only produce noise batches.
func ignoredName(name string) bool {
	switch {
	case name == "node_modules", name == "4913":
		return true
	case strings.HasPrefix(name, "."): // .git, .cache, .#lock, .foo.swp
		return true
	case strings.HasSuffix(name, "~"):
		return true
	case strings.HasPrefix(name, "#") && strings.HasSuffix(name, "#"):
		return true
	}
	switch strings.ToLower(filepath.Ext(name)) {
	case ".swp", ".swx", ".tmp":
		return true
	}
	return strings.HasSuffix(name, "___jb_tmp___") || strings.HasSuffix(name, "___jb_old___")
}

// IgnoreUnder returns an ignore function for NewWatcher that matches each of
// dirs and everything below it. Use it for the build output folder, which the
// dev server itself writes on every rebuild and so must never trigger one.
// Relative dirs are resolved against the current working directory.
func IgnoreUnder(dirs ...string) func(path string) bool {
	abs := make([]string, 0, len(dirs))
	for _, d := range dirs {
		if d == "" {
			continue
		}
		if a, err := filepath.Abs(d); err == nil {
			abs = append(abs, a)
		}
	}
	return func(path string) bool {
		for _, d := range abs {
			if within(d, path) {
				return true
			}
		}
		return false
	}
}

// within reports whether p is dir or lies below it. Both must be clean and
// absolute; the comparison is lexical (no symlink resolution).
func within(dir, p string) bool {
	if p == dir {
		return true
	}
	if !strings.HasSuffix(dir, string(filepath.Separator)) {
		dir += string(filepath.Separator)
	}
	return strings.HasPrefix(p, dir)
}
