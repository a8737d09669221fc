package config

// ApplyEnv lets the environment override what the file says: BEXT_ADDR sets
// [server] addr and BEXT_ADMIN_TOKEN sets [admin] token. An unset or empty
// variable changes nothing. getenv is os.Getenv in production.
func (c *Config) ApplyEnv(getenv func(string) string) {
	if v := getenv("BEXT_ADDR"); v != "" {
		c.Server.Addr = v
	}
	if v := getenv("BEXT_ADMIN_TOKEN"); v != "" {
		c.Admin.Token = v
	}
}
