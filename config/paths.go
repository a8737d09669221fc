package config

import "path/filepath"

// resolvePaths makes every path in the file absolute, relative to Dir, so
// the server behaves the same whatever folder it was started from.
func (c *Config) resolvePaths() {
	c.App.ServerEntry = c.abs(c.App.ServerEntry)
	c.App.ClientEntry = c.abs(c.App.ClientEntry)
	c.App.PublicDir = c.abs(c.App.PublicDir)
	c.App.OutDir = c.abs(c.App.OutDir)
	for i, d := range c.Render.Lifecycle.WatchDirs {
		c.Render.Lifecycle.WatchDirs[i] = c.abs(d)
	}
}

// abs resolves p against Dir; "" stays "" (an unset optional path).
func (c *Config) abs(p string) string {
	if p == "" || filepath.IsAbs(p) {
		return p
	}
	return filepath.Join(c.Dir, p)
}
