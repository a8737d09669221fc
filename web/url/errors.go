package url

// Errors are TypeErrors as the standards say, with the message and the
// own properties Node gives them (code, and input/base for an invalid
// URL), so code written against Node's errors works unchanged.

// throw throws a TypeError with message msg and the given own properties
// (name, value pairs; enumerable, as Node's are).
func (c *classes) throw(msg string, props ...string) {
	e := c.rt.NewTypeError(msg)
	for i := 0; i+1 < len(props); i += 2 {
		_ = e.Set(props[i], props[i+1])
	}
	panic(e)
}

// invalidURL throws Node's ERR_INVALID_URL for input (and base, when
// one was given).
func (c *classes) invalidURL(input string, base *string) {
	if base != nil {
		c.throw("Invalid URL", "code", "ERR_INVALID_URL", "input", input, "base", *base)
	}
	c.throw("Invalid URL", "code", "ERR_INVALID_URL", "input", input)
}

// missing throws Node's ERR_MISSING_ARGS when a call got fewer than n
// arguments; names are the arguments' names as Node quotes them.
func (c *classes) missing(got, n int, names string) {
	if got < n {
		msg := "The " + names + " argument must be specified"
		if n > 1 {
			msg = "The " + names + " arguments must be specified"
		}
		c.throw(msg, "code", "ERR_MISSING_ARGS")
	}
}
