package engine

import (
	"context"
	"log/slog"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/dop251/goja"
)

// consoleRing keeps the newest lines of an isolate's console output. It is
// written by the isolate's render goroutine and read by monitors, so it has
// its own lock.
type consoleRing struct {
	mu    sync.Mutex
	lines []ConsoleLine
	next  int // index of the slot the next line goes to once full
	full  bool
}

func newConsoleRing(n int) *consoleRing {
	if n <= 0 {
		n = 200
	}
	return &consoleRing{lines: make([]ConsoleLine, 0, n)}
}

func (c *consoleRing) add(l ConsoleLine) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if !c.full {
		c.lines = append(c.lines, l)
		if len(c.lines) == cap(c.lines) {
			c.full = true
		}
		return
	}
	c.lines[c.next] = l
	c.next = (c.next + 1) % len(c.lines)
}

// tail returns a copy of the kept lines, oldest first.
func (c *consoleRing) tail() []ConsoleLine {
	c.mu.Lock()
	defer c.mu.Unlock()
	out := make([]ConsoleLine, 0, len(c.lines))
	out = append(out, c.lines[c.next:]...)
	return append(out, c.lines[:c.next]...)
}

var consoleLevels = map[string]slog.Level{
	"log": slog.LevelInfo, "info": slog.LevelInfo, "warn": slog.LevelWarn,
	"error": slog.LevelError, "debug": slog.LevelDebug, "trace": slog.LevelDebug,
}

func (i *Isolate) installConsole() {
	con := i.rt.NewObject()
	for name, lvl := range consoleLevels {
		level := name
		if level == "trace" {
			level = "debug"
		}
		_ = con.Set(name, func(call goja.FunctionCall) goja.Value {
			i.consoleLine(level, lvl, i.format(call.Arguments))
			return goja.Undefined()
		})
	}
	_ = i.rt.Set("console", con)
}

// Console output reaches the log at a bounded rate: an app that logs in a
// loop must not flood the operator's logs (or the disk). Every line is
// kept in the ring (the tail /__bext/workers/{id} shows); the log takes a
// burst of consoleBurst lines, then consoleRate a second, and says how
// many it left out. A line longer than maxConsoleLine is cut.
const (
	consoleBurst   = 200
	consoleRate    = 50 // lines per second
	maxConsoleLine = 16 << 10
)

// logBucket is a token bucket over the console lines of one isolate.
type logBucket struct {
	tokens  float64
	last    time.Time
	dropped int
}

// take reports whether a line may be logged at now, and how many lines
// were left out before it.
func (b *logBucket) take(now time.Time) (ok bool, dropped int) {
	if b.last.IsZero() {
		b.tokens = consoleBurst
	} else {
		b.tokens = min(consoleBurst, b.tokens+now.Sub(b.last).Seconds()*consoleRate)
	}
	b.last = now
	if b.tokens < 1 {
		b.dropped++
		return false, 0
	}
	b.tokens--
	dropped, b.dropped = b.dropped, 0
	return true, dropped
}

func (i *Isolate) consoleLine(level string, lvl slog.Level, text string) {
	if len(text) > maxConsoleLine {
		text = text[:maxConsoleLine] + "… (" + strconv.Itoa(len(text)-maxConsoleLine) + " more bytes)"
	}
	now := time.Now()
	i.console.add(ConsoleLine{At: now, Level: level, Text: text})
	ok, dropped := i.logBucket.take(now)
	if dropped > 0 {
		i.log.LogAttrs(context.Background(), slog.LevelWarn, "console output of a worker exceeds the log rate; lines were left out of the log (the worker's console tail keeps them)",
			slog.Int("worker", i.opts.WorkerID), slog.Int("lines_left_out", dropped), slog.Int("lines_per_second", consoleRate))
	}
	if ok {
		i.log.LogAttrs(context.Background(), lvl, text, slog.Int("worker", i.opts.WorkerID), slog.String("source", "console."+level))
	}
}

// format renders console arguments roughly as Node does: a leading string
// may hold %s %d %i %f %j %o %O %c substitutions; other arguments follow
// separated by spaces, strings as they are and everything else inspected.
func (i *Isolate) format(args []goja.Value) string {
	var b strings.Builder
	rest := args
	if len(args) > 0 {
		if s, ok := args[0].Export().(string); ok && strings.IndexByte(s, '%') >= 0 {
			rest = i.substitute(&b, s, args[1:])
		} else {
			b.WriteString(i.inspect(args[0], true))
			rest = args[1:]
		}
	}
	for _, a := range rest {
		if b.Len() > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(i.inspect(a, true))
	}
	return b.String()
}

func (i *Isolate) substitute(b *strings.Builder, f string, args []goja.Value) []goja.Value {
	for j := 0; j < len(f); j++ {
		c := f[j]
		if c != '%' || j+1 == len(f) {
			b.WriteByte(c)
			continue
		}
		verb := f[j+1]
		if verb == '%' {
			b.WriteByte('%')
			j++
			continue
		}
		if !strings.ContainsRune("sdifjoOc", rune(verb)) || len(args) == 0 {
			b.WriteByte(c)
			continue
		}
		a := args[0]
		args = args[1:]
		j++
		switch verb {
		case 's':
			b.WriteString(i.inspect(a, true))
		case 'd', 'i':
			n := a.ToFloat()
			if verb == 'i' || n == float64(int64(n)) {
				b.WriteString(strconv.FormatInt(int64(n), 10))
			} else {
				b.WriteString(a.ToNumber().String())
			}
		case 'f':
			b.WriteString(a.ToNumber().String())
		case 'j', 'o', 'O':
			b.WriteString(i.inspect(a, false))
		case 'c': // CSS styling has no meaning in a log
		}
	}
	return args
}

// inspect is a small stand-in for Node's util.inspect: primitives print as
// themselves, errors print their stack, functions their name, and other
// objects as JSON (or their toString when JSON fails, e.g. on a cycle).
func (i *Isolate) inspect(v goja.Value, top bool) string {
	if v == nil || goja.IsUndefined(v) {
		return "undefined"
	}
	if goja.IsNull(v) {
		return "null"
	}
	obj, ok := v.(*goja.Object)
	if !ok {
		if s, isStr := v.Export().(string); isStr && !top {
			return strconv.Quote(s)
		}
		return v.String()
	}
	if _, isFn := goja.AssertFunction(v); isFn {
		name := obj.Get("name")
		if name == nil || name.String() == "" {
			return "[Function (anonymous)]"
		}
		return "[Function: " + name.String() + "]"
	}
	if obj.ClassName() == "Error" {
		if st := obj.Get("stack"); st != nil && !goja.IsUndefined(st) && st.String() != "" {
			return st.String()
		}
		return obj.String()
	}
	if i.stringify != nil {
		if out, err := i.stringify(goja.Undefined(), v); err == nil && !goja.IsUndefined(out) {
			return out.String()
		}
	}
	return obj.String()
}
