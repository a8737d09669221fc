package config

// ApplyEnv lets the environment override what the file says: BEXT_ADDR sets
// [server] addr, BEXT_ADMIN_ADDR [admin] addr and BEXT_ADMIN_TOKEN
// [admin] token. An unset or empty
// variable changes nothing. getenv is os.Getenv in production.
func (c *Config) ApplyEnv(getenv func(string) string) {
	if v := getenv("BEXT_ADDR"); v != "" {
		c.Server.Addr = v
	}
	if v := getenv("BEXT_ADMIN_ADDR"); v != "" {
		c.Admin.Addr = v
	}
	if v := getenv("BEXT_ADMIN_TOKEN"); v != "" {
		c.Admin.Token = v
	}
}
