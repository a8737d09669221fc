// Package devserver owns `bext dev` and the production watch (serve with
// watch_dirs): it turns file saves into rebuilds, restarts and browser
// reloads.
//
// The pieces, each in its own file, are independent of the engine and the
// pool:
//
//   - Watcher (watcher.go, ignore.go): recursive fsnotify watch of the
//     watch_dirs, new folders included; skips node_modules, dot-files, editor
//     temp files and the build output (IgnoreUnder).
//   - Batcher (batcher.go): trailing debounce (watch_debounce_ms) into
//     deduplicated, sorted batches.
//   - Classify (classify.go): a batch's most severe Change — none < client <
//     server < config — and the path that caused it, checked against the
//     last build's metafile Inputs.
//   - Hub (livereload.go): Server-Sent Events at /__bext/livereload; reload,
//     error overlay, ok.
//   - ClientScript and InjectHTML (inject.go): the browser side, inlined in
//     SSR pages in dev. ErrorOverlay (overlay.go) is the payload both share.
//
// # The dev loop (dev.go)
//
// Run reads the Watcher's events, batches them, Classifies each batch against
// the inputs of the last successful builds and drives the app through two
// narrow seams, Builder (the incremental esbuild builds) and Target (the
// running pool and client assets), so its reactions are tested in fake time
// with fakes of them:
//
//   - ChangeClient: Builder.Build(client only), Target.ServeClient, reload;
//     the workers are untouched unless the page's asset URLs changed.
//   - ChangeServer: Builder.Build(both), Target.Boot (compile + one isolate
//     as a check), Target.ServeClient, Deployment.Roll (surge-first rolling
//     restart that returns once every slot runs the new bundle), then Hub.Clear
//     if an error was showing, else Hub.Reload. Log:
//     "[bext] Workers restarted (file change: src/components/Header.tsx)".
//   - ChangeConfig: Target.Reconfigure (reload the config, rebuild, new pool).
//
// A failure shows OverlayFor(err) (explain.go) and leaves the old workers
// serving; the next success that covers the broken scope clears it. Options
// .Trace times each phase for the latency benchmark. Package main implements
// Builder and Target over engine and pool (cmd_dev.go).
package devserver
