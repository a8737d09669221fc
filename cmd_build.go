package main

import (
	"flag"
	"fmt"
	"io"
	"os"

	"bext/internal/app"
)

func init() {
	register(command{Name: "build", Usage: "build [-config FILE]",
		Short: "Write the server and client bundles with a manifest to [app] out_dir, for deploys without node_modules.",
		Flags: func(fs *flag.FlagSet) func(out io.Writer) (int, error) {
			cfgPath := fs.String("config", "", "config file (default ./config.toml, else the embedded example app)")
			return func(out io.Writer) (int, error) {
				cfg, err := app.LoadConfig(*cfgPath, func(s string) { fmt.Fprintln(os.Stderr, "bext:", s) })
				if err != nil {
					return 1, err
				}
				b, err := app.Build(cfg, false)
				if err != nil {
					return 1, err
				}
				for _, w := range b.Warnings {
					fmt.Fprintln(os.Stderr, "warning:", w)
				}
				dir, err := b.Write(cfg)
				if err != nil {
					return 1, err
				}
				fmt.Fprintf(out, "bext: %s; wrote %s (server bundle %d bytes, %d client files)\n", b.From, dir, len(b.ServerCode), len(b.Assets.Files))
				for _, f := range b.FastPaths {
					fmt.Fprintln(out, "bext: fast path", f)
				}
				return 0, nil
			}
		}})
}
