package config

import "os"

// DefaultFile is the config file bext looks for in the working directory.
const DefaultFile = "config.toml"

// Find is the one rule for which config file a command uses: the -config
// flag when given, else ./config.toml when it exists, else "" (none: serve
// and dev then use the embedded example app, the admin commands the
// defaults).
func Find(flag string) string {
	if flag != "" {
		return flag
	}
	if fi, err := os.Stat(DefaultFile); err == nil && fi.Mode().IsRegular() {
		return DefaultFile
	}
	return ""
}
