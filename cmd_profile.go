package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"bext/internal/app"
)

func init() {
	register(command{Name: "profile", Usage: "profile [-config FILE] [-app NAME] [-route /path?query] [-n RENDERS] [-o FILE] [-dev]",
		Short: "Render a route of the app many times in one isolate and write a JS CPU profile (pprof) naming your source functions.",
		Flags: func(fs *flag.FlagSet) func(out io.Writer) (int, error) {
			cfgPath := fs.String("config", "", "config file (default ./config.toml, else the embedded example app)")
			appName := fs.String("app", "", "with [[apps]]: the app to profile")
			route := fs.String("route", "/", "path and query to render")
			n := fs.Int("n", 200, "renders to profile")
			warmup := fs.Int("warmup", 20, "renders before the profile starts")
			outFile := fs.String("o", "bext-js.pprof", "profile file to write")
			dev := fs.Bool("dev", false, "profile the development build (your libraries' dev builds) instead of production")
			top := fs.Int("top", 15, "functions to list by their own time (0 = none)")
			return func(out io.Writer) (int, error) {
				cfg, err := app.LoadConfig(*cfgPath, func(s string) { fmt.Fprintln(os.Stderr, "bext:", s) })
				if err != nil {
					return 1, err
				}
				res, err := app.Profile(cfg, app.ProfileOptions{App: *appName, Route: *route, Renders: *n, Warmup: *warmup, Dev: *dev})
				if err != nil {
					return 1, err
				}
				f, err := os.Create(*outFile)
				if err != nil {
					return 1, err
				}
				if err := res.WriteProfile(f); err != nil {
					f.Close()
					return 1, err
				}
				if err := f.Close(); err != nil {
					return 1, err
				}
				per := res.Elapsed / time.Duration(res.Renders)
				fmt.Fprintf(out, "bext: rendered %s %d times (status %d, %d bytes, %.2f ms each); wrote %s\n",
					*route, res.Renders, res.Status, res.Bytes, float64(per)/1e6, *outFile)
				printTop(out, res.Top, *top)
				abs, _ := filepath.Abs(*outFile)
				fmt.Fprintf(out, "more: go tool pprof -top %s   (-lines for source lines, -http=: for a flame graph)\n", abs)
				return 0, nil
			}
		}})
}

// printTop lists the n functions with the most time of their own.
func printTop(out io.Writer, top []app.ProfileFunc, n int) {
	if n <= 0 || len(top) == 0 {
		return
	}
	fmt.Fprintf(out, "%7s %7s  %s\n", "flat%", "cum%", "function")
	for i, f := range top {
		if i == n {
			break
		}
		fmt.Fprintf(out, "%6.1f%% %6.1f%%  %s  %s:%d\n", 100*f.Flat, 100*f.Cum, f.Name, f.File, f.Line)
	}
}
