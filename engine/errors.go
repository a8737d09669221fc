package engine

import (
	"time"

	"fmt"
	"strings"
	"sync/atomic"

	"github.com/dlclark/regexp2/v2"

	"github.com/evanw/esbuild/pkg/api"
)

// ErrorKind classifies a failed render. Only KindException leaves the
// isolate usable; every other kind is fatal and the isolate must be replaced.
type ErrorKind int

const (
	// KindException: the render threw, or its promise rejected. The request
	// failed; the isolate is fine and is kept.
	KindException ErrorKind = iota
	// KindTimeout: the render was interrupted because its context ended
	// (deadline or cancel). The isolate must be replaced.
	KindTimeout
	// KindStackOverflow: the render exceeded the call stack limit. The
	// isolate must be replaced.
	KindStackOverflow
	// KindPanic: a Go panic escaped a host function or goja and was
	// recovered. The isolate must be replaced.
	KindPanic
	// KindAbandoned: the render ignored its interrupt for
	// Options.InterruptGrace (goja cannot interrupt native built-ins such as
	// a catastrophic regexp). Its goroutine is left running and counted by
	// AbandonedRenders; the isolate is dead.
	KindAbandoned
)

// String returns the label used in logs and metrics.
func (k ErrorKind) String() string {
	switch k {
	case KindException:
		return "exception"
	case KindTimeout:
		return "timeout"
	case KindStackOverflow:
		return "stack_overflow"
	case KindPanic:
		return "panic"
	case KindAbandoned:
		return "abandoned"
	}
	return fmt.Sprintf("ErrorKind(%d)", int(k))
}

// RenderError is the only error type Render returns.
type RenderError struct {
	Kind    ErrorKind
	Message string // one line, for logs and error pages
	Stack   string // JS stack (or Go stack for KindPanic); shown only in dev
	// Cause is context.Cause(ctx) for KindTimeout and KindAbandoned, so a
	// caller can tell its own drain timeout from the render timeout.
	Cause error
	// Written: the response had begun through Request.Writer (a stream
	// that failed mid-way) and was broken off there; answer nothing more.
	Written bool
}

func (e *RenderError) Error() string {
	return "render " + e.Kind.String() + ": " + e.Message
}

// Unwrap returns Cause.
func (e *RenderError) Unwrap() error { return e.Cause }

// Fatal reports whether the isolate that produced e must be replaced.
func (e *RenderError) Fatal() bool { return e.Kind != KindException }

// BootError means an isolate could not be made from a Program: the bundle
// threw while loading, or it defines no render function.
type BootError struct {
	Message string
	Stack   string
}

func (e *BootError) Error() string { return e.Message }

// BuildError is an esbuild failure. Text is esbuild's own formatting of the
// messages: file:line:col, the offending source line and a caret under it.
type BuildError struct {
	Messages []api.Message
	Text     string
}

func (e *BuildError) Error() string {
	return "build failed:\n" + strings.TrimRight(e.Text, "\n")
}

func newBuildError(msgs []api.Message) *BuildError {
	text := strings.Join(api.FormatMessages(msgs, api.FormatMessagesOptions{Kind: api.ErrorMessage}), "")
	return &BuildError{Messages: msgs, Text: text}
}

var abandoned atomic.Int64

// AbandonedRenders returns how many render goroutines this process has left
// running because they ignored their interrupt. Each one still holds its
// isolate's memory and may burn CPU until its native call returns.
func AbandonedRenders() int64 { return abandoned.Load() }

// abandonedRunning counts abandoned render goroutines that have not
// returned yet.
var abandonedRunning atomic.Int64

// onAbandonedReturn, in tests, is called when an abandoned goroutine returns.
var onAbandonedReturn func()

// AbandonedRunning returns how many abandoned render goroutines are still
// running. Their lifetime is bounded: the only built-ins known to ignore
// an interrupt are backtracking regexps, and a regexp match gives up after
// RegexpMatchTimeout; the goroutine then meets its interrupt and returns.
func AbandonedRunning() int64 { return abandonedRunning.Load() }

// RegexpMatchTimeout bounds one match of a backtracking regexp (goja runs
// those with regexp2; the others on Go's linear-time regexp): a match that
// runs longer gives up as "no match". No render lasts that long anyway
// ([render] render_timeout_ms is at most an hour, its default 5 s); the
// bound is what ends the goroutine of a render abandoned in a
// catastrophic regexp.
const RegexpMatchTimeout = 10 * time.Second

func init() { regexp2.DefaultMatchTimeout = RegexpMatchTimeout }
