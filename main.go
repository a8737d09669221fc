// Command bext server-side renders JavaScript apps through a pool of goja
// isolates. Run `bext help` for the commands.
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"sort"
	"strings"
)

// version is set at build time with -ldflags "-X main.version=…".
var version = "dev"

// command is one subcommand (Caddy's shape): its flags and its function.
type command struct {
	Name  string
	Usage string
	Short string
	Flags func(fs *flag.FlagSet) func(out io.Writer) (int, error)
}

var commands = map[string]command{}

func register(c command) { commands[c.Name] = c }

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// run dispatches args to a command and returns the process exit code.
func run(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 || args[0] == "help" || args[0] == "-h" || args[0] == "--help" {
		usage(stdout)
		return 0
	}
	name := args[0]
	rest := args[1:]
	if len(rest) > 0 && !strings.HasPrefix(rest[0], "-") {
		if _, ok := commands[name+" "+rest[0]]; ok { // "workers restart", "cache purge"
			name, rest = name+" "+rest[0], rest[1:]
		}
	}
	c, ok := commands[name]
	if !ok {
		fmt.Fprintf(stderr, "bext: unknown command %q\n\n", name)
		usage(stderr)
		return 2
	}
	fs := flag.NewFlagSet("bext "+c.Name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprintf(stderr, "usage: bext %s\n\n%s\n\n", c.Usage, c.Short)
		fs.PrintDefaults()
	}
	fn := c.Flags(fs)
	if err := fs.Parse(rest); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	code, err := fn(stdout)
	if err != nil {
		fmt.Fprintf(stderr, "bext %s: %v\n", c.Name, err)
		if code == 0 {
			code = 1
		}
	}
	return code
}

func usage(w io.Writer) {
	fmt.Fprintf(w, "bext %s — server-side rendering through a pool of JS isolates\n\nCommands:\n", version)
	names := make([]string, 0, len(commands))
	for n := range commands {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		fmt.Fprintf(w, "  %-40s %s\n", commands[n].Usage, commands[n].Short)
	}
	fmt.Fprintln(w, "\nRun `bext COMMAND -h` for a command's flags.")
}

func init() {
	register(command{Name: "version", Usage: "version", Short: "Print the version.",
		Flags: func(fs *flag.FlagSet) func(out io.Writer) (int, error) {
			return func(out io.Writer) (int, error) { fmt.Println("bext", version); return 0, nil }
		}})
}
