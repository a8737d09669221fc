package main

import (
	"errors"
	"flag"
	"fmt"
	"io"

	"bext/cache"
)

func init() {
	register(command{Name: "cache purge", Usage: "cache purge [-addr HOST:PORT] (--path P | --prefix P | --tag T | --all) [--app NAME]",
		Short: "Remove pages from the page cache: one path, every path under a prefix, every page whose Cache-Tag names a tag, or all.",
		Flags: func(fs *flag.FlagSet) func(out io.Writer) (int, error) {
			client := adminFlags(fs)
			var sel cache.Selector
			fs.StringVar(&sel.Path, "path", "", "purge this exact path (every query string and variant of it)")
			fs.StringVar(&sel.Prefix, "prefix", "", "purge every path starting with this")
			fs.StringVar(&sel.Tag, "tag", "", "purge every page whose Cache-Tag header lists this tag")
			fs.BoolVar(&sel.All, "all", false, "purge everything")
			name := fs.String("app", "", "the app, with [[apps]]")
			return func(out io.Writer) (int, error) {
				n := 0
				for _, set := range []bool{sel.Path != "", sel.Prefix != "", sel.Tag != "", sel.All} {
					if set {
						n++
					}
				}
				if n != 1 {
					return 2, errors.New("say what to purge with exactly one of --path, --prefix, --tag or --all")
				}
				c, err := client()
				if err != nil {
					return 1, err
				}
				purged, err := c.PurgeCache(sel, *name)
				if err != nil {
					return 1, err
				}
				fmt.Fprintf(out, "purged %d cached response(s)\n", purged)
				return 0, nil
			}
		}})
	register(command{Name: "cache stats", Usage: "cache stats [-addr HOST:PORT] [-json] [--app NAME]", Short: "Print the page cache's counters, hit ratio and memory.",
		Flags: func(fs *flag.FlagSet) func(out io.Writer) (int, error) {
			client := adminFlags(fs)
			asJSON := fs.Bool("json", false, "print the raw JSON")
			name := fs.String("app", "", "the app, with [[apps]]")
			return func(out io.Writer) (int, error) {
				c, err := client()
				if err != nil {
					return 1, err
				}
				st, err := c.CacheStats(*name)
				if err != nil {
					return 1, err
				}
				if st == nil {
					return 1, errors.New("no page cache: it is off ([cache] enabled = false or max_bytes = 0, or bext dev without dev_enabled), or the app is not running")
				}
				if *asJSON {
					return 0, printJSON(out, st)
				}
				printCacheStats(out, st)
				return 0, nil
			}
		}})
}

// cacheLine is the one-line summary `bext ps` prints under the workers.
func cacheLine(st *cache.Stats) string {
	return fmt.Sprintf("Page cache: %.1f%% hits (%s hit, %s stale, %s miss, %s bypass), %d entries, %s of %s",
		100*st.HitRatio, thousands(int64(st.Hits)), thousands(int64(st.Stale)), thousands(int64(st.Misses)), thousands(int64(st.Bypasses)),
		st.Entries, humanBytes(st.Bytes), humanBytes(st.MaxBytes))
}

func printCacheStats(w io.Writer, st *cache.Stats) {
	fmt.Fprintln(w, cacheLine(st))
	for _, kv := range []struct {
		k string
		v uint64
	}{
		{"hits", st.Hits}, {"stale", st.Stale}, {"misses", st.Misses}, {"collapsed", st.Collapsed}, {"bypasses", st.Bypasses},
		{"error_stale", st.ErrorStale}, {"stores", st.Stores}, {"evictions", st.Evictions}, {"expirations", st.Expirations},
		{"purged", st.Purged}, {"revalidations", st.Revalidations}, {"revalidations_failed", st.RevalidationsFailed},
	} {
		fmt.Fprintf(w, "  %-22s %s\n", kv.k, thousands(int64(kv.v)))
	}
}
