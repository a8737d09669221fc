package node

import (
	"math/big"
	"os"
	"runtime"
	"runtime/metrics"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/dop251/goja"
)

// Version is the Node version bext reports (process.version without the
// "v"): the release line whose behaviour the built-ins follow.
const Version = "20.18.0"

var processStart = time.Now()

var cwd = sync.OnceValue(func() string {
	d, err := os.Getwd()
	if err != nil {
		return "/"
	}
	return d
})

func nodeArch() string {
	switch runtime.GOARCH {
	case "amd64":
		return "x64"
	case "386":
		return "ia32"
	case "arm64", "arm", "ppc64", "s390x", "riscv64", "loong64", "mips", "mipsel":
		return runtime.GOARCH
	}
	return runtime.GOARCH
}

// installProcess turns the runtime's process global (env and argv, set by
// the isolate) into Node's process on its first access.
func installProcess(s *state) {
	r := s.r
	g := r.RT.GlobalObject()
	old, _ := g.Get("process").(*goja.Object)
	r.Lazy("process", func() {
		p := old
		if p == nil {
			p = r.RT.NewObject()
			_ = p.Set("env", r.RT.NewObject())
		}
		if _, err := s.runModuleBody("process.js", p, s.processNative()); err != nil {
			panic(err)
		}
		r.Global("process", p)
	})
}

func (s *state) processNative() *goja.Object {
	rt := s.r.RT
	n := rt.NewObject()
	_ = n.Set("nextTick", s.nextTick)
	_ = n.Set("version", "v"+Version)
	_ = n.Set("node", Version)
	_ = n.Set("platform", runtime.GOOS)
	_ = n.Set("arch", nodeArch())
	_ = n.Set("pid", os.Getpid())
	_ = n.Set("ppid", os.Getppid())
	_ = n.Set("cwd", func() string { return cwd() })
	_ = n.Set("uptime", func() float64 { return time.Since(processStart).Seconds() })
	_ = n.Set("hrtime", func() []int64 {
		ns := time.Since(processStart).Nanoseconds() + processStart.UnixNano()%1e9
		return []int64{ns / 1e9, ns % 1e9}
	})
	_ = n.Set("hrtimeBigint", func() goja.Value {
		ns := time.Since(processStart).Nanoseconds() + processStart.UnixNano()%1e9
		return rt.ToValue(big.NewInt(ns))
	})
	_ = n.Set("memory", func() map[string]uint64 {
		sample := []metrics.Sample{
			{Name: "/memory/classes/total:bytes"},
			{Name: "/memory/classes/heap/objects:bytes"},
			{Name: "/gc/heap/goal:bytes"},
		}
		metrics.Read(sample)
		v := func(i int) uint64 {
			if sample[i].Value.Kind() == metrics.KindUint64 {
				return sample[i].Value.Uint64()
			}
			return 0
		}
		return map[string]uint64{"rss": v(0), "heapUsed": v(1), "heapTotal": max(v(2), v(1))}
	})
	return n
}

// runModuleBody runs js/<file> as a module body with module.exports = obj.
func (s *state) runModuleBody(file string, obj *goja.Object, native *goja.Object) (goja.Value, error) {
	prog, err := bodyProgram(file)
	if err != nil {
		return nil, err
	}
	rt := s.r.RT
	fnv, err := rt.RunProgram(prog)
	if err != nil {
		return nil, err
	}
	fn, _ := goja.AssertFunction(fnv)
	mod := rt.NewObject()
	_ = mod.Set("exports", obj)
	return fn(goja.Undefined(), mod, obj, s.require, native)
}

var bodyPrograms sync.Map // file -> func() (*goja.Program, error)

func bodyProgram(file string) (*goja.Program, error) {
	f, _ := bodyPrograms.LoadOrStore(file, sync.OnceValues(func() (*goja.Program, error) {
		src, err := jsFiles.ReadFile("js/" + file)
		if err != nil {
			return nil, err
		}
		return goja.Compile("node:"+strings.TrimSuffix(file, ".js"), "(function (module, exports, require, native) {\n"+string(src)+"\n})", true)
	}))
	return f.(func() (*goja.Program, error))()
}

func itoa(i int) string { return strconv.Itoa(i) }

// typeError makes a Node-style TypeError with a code.
func (s *state) typeError(code, msg string) goja.Value {
	e := s.r.NewError("TypeError", msg)
	_ = e.Set("code", code)
	return e
}

// describe is the tail of Node's ERR_INVALID_ARG_TYPE messages.
func describe(v goja.Value) string {
	switch {
	case v == nil || goja.IsUndefined(v):
		return "undefined"
	case goja.IsNull(v):
		return "null"
	}
	if o, ok := v.(*goja.Object); ok {
		if _, isFn := goja.AssertFunction(o); isFn {
			return "function " + o.Get("name").String()
		}
		if c, ok := o.Get("constructor").(*goja.Object); ok {
			if n := c.Get("name"); n != nil && n.String() != "" {
				return "an instance of " + n.String()
			}
		}
		return "an instance of Object"
	}
	ex := v.ExportType()
	t := "type " + ex.Kind().String()
	switch {
	case goja.IsString(v):
		s := v.String()
		if len(s) > 28 {
			s = s[:25] + "..."
		}
		return "type string ('" + s + "')"
	case goja.IsNumber(v):
		return "type number (" + v.String() + ")"
	case goja.IsBigInt(v):
		return "type bigint (" + v.String() + "n)"
	}
	if _, ok := v.Export().(bool); ok {
		return "type boolean (" + v.String() + ")"
	}
	return t
}
