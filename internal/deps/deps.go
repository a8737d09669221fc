// Package deps pins the project's chosen dependencies in go.mod while the
// packages that use them are being written. Delete once every one is imported.
package deps

import (
	_ "github.com/BurntSushi/toml"
	_ "github.com/chromedp/chromedp"
	_ "github.com/dop251/goja"
	_ "github.com/evanw/esbuild/pkg/api"
	_ "github.com/fsnotify/fsnotify"
	_ "github.com/go-chi/chi/v5"
	_ "github.com/go-chi/chi/v5/middleware"
	_ "github.com/prometheus/client_golang/prometheus"
	_ "github.com/prometheus/client_golang/prometheus/promhttp"
	_ "github.com/prometheus/client_golang/prometheus/testutil"
	_ "github.com/prometheus/client_golang/prometheus/testutil/promlint"
	_ "github.com/prometheus/common/expfmt"
)
