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
// # The orchestrator (next phase)
//
// The dev loop will read Batches, Classify each batch and act on the Change.
// It is expected to drive the engine and the pool through two narrow
// interfaces, defined here so tests can fake them:
//
//	// Builder wraps the esbuild context (incremental Rebuild).
//	type Builder interface {
//		// Rebuild rebuilds both bundles. On failure, errs holds one
//		// ErrorOverlay per esbuild message (Title TitleBuildFailed).
//		Rebuild(ctx context.Context) (b Build, errs []ErrorOverlay)
//		// RebuildClient rebuilds only the client bundle and CSS.
//		RebuildClient(ctx context.Context) (Inputs, []ErrorOverlay)
//	}
//	type Build struct {
//		ServerCode []byte // the server bundle, ready to compile
//		Inputs     Inputs // metafile inputs, as absolute paths
//	}
//
//	// Target is the running worker pool.
//	type Target interface {
//		// Deploy compiles serverCode, boots one isolate with it as a
//		// boot check and, only if that succeeds, rolls every worker over
//		// to it (drain, then replace, one at a time). On a boot failure
//		// it returns the error and the old workers keep serving; the
//		// orchestrator shows it with Title TitleBootFailed. reason is the
//		// rotation reason label ("watch"); file is the RelPath of the
//		// change, for the log line
//		// "[bext] Workers restarted (file change: src/components/Header.tsx)".
//		Deploy(ctx context.Context, serverCode []byte, reason, file string) error
//	}
//
// Per Change: ChangeClient → RebuildClient, then Hub.Reload (or Hub.Error);
// ChangeServer → Rebuild, Target.Deploy, then Hub.Clear if an error was
// showing, else Hub.Reload; ChangeConfig → reload the config and re-apply it
// (a full restart of the pool). Inputs from the last successful build are
// kept for the next Classify.
package devserver
