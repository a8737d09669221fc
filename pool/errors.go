package pool

import (
	"errors"

	"bext/engine"
)

// failureKind names a render failure for the failures metric label.
func failureKind(err error) string {
	var re *engine.RenderError
	switch {
	case errors.As(err, &re):
		return re.Kind.String()
	case errors.Is(err, ErrQueueTimeout):
		return "queue_timeout"
	case fatal(err):
		return "panic"
	}
	return "error"
}
