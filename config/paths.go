package config

import "path/filepath"

// resolvePaths makes every path in the file absolute, relative to Dir, so
// the server behaves the same whatever folder it was started from.
func (c *Config) resolvePaths() {
	c.resolveApp(&c.App, &c.Render)
	for n := range c.Apps {
		c.resolveApp(&c.Apps[n].App, &c.Apps[n].Render)
	}
}

func (c *Config) resolveApp(a *App, r *Render) {
	a.ServerEntry = c.abs(a.ServerEntry)
	a.ClientEntry = c.abs(a.ClientEntry)
	a.PublicDir = c.abs(a.PublicDir)
	a.OutDir = c.abs(a.OutDir)
	for i, d := range r.Lifecycle.WatchDirs {
		r.Lifecycle.WatchDirs[i] = c.abs(d)
	}
}

// abs resolves p against Dir; "" stays "" (an unset optional path).
func (c *Config) abs(p string) string {
	if p == "" || filepath.IsAbs(p) {
		return p
	}
	return filepath.Join(c.Dir, p)
}
