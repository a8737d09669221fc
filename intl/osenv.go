package intl

import "os"

func getenv(k string) string            { return os.Getenv(k) }
func readlink(p string) (string, error) { return os.Readlink(p) }
