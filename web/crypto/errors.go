package crypto

import "fmt"

// opError is a failure of an operation's Go steps, named as the spec names
// it: a DOMException name ("NotSupportedError", "InvalidAccessError",
// "DataError", "OperationError", "SyntaxError") or "TypeError". The JS
// error object is made on the JS goroutine (see state.reject).
type opError struct{ name, msg string }

func (e *opError) Error() string { return e.name + ": " + e.msg }

func errf(name, format string, args ...any) *opError {
	if len(args) == 0 {
		return &opError{name, format}
	}
	return &opError{name, fmt.Sprintf(format, args...)}
}

const (
	notSupported  = "NotSupportedError"
	invalidAccess = "InvalidAccessError"
	dataError     = "DataError"
	operation     = "OperationError"
	syntaxError   = "SyntaxError"
	typeError     = "TypeError"
)

// opFailed is the message for a failure the spec gives no detail for.
const opFailed = "The operation failed for an operation-specific reason"
