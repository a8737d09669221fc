package devserver

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sync"

	"github.com/fsnotify/fsnotify"
)

// FileWatcher is what the dev loop consumes: a stream of changed paths and a
// stream of errors. *Watcher implements it with fsnotify; tests of the
// orchestrator can feed a fake.
type FileWatcher interface {
	Events() <-chan string
	Errors() <-chan error
	Close() error
}

var _ FileWatcher = (*Watcher)(nil)

// Watcher watches folder trees recursively. fsnotify only watches single
// folders, so Watcher adds every folder below each root, and adds folders
// created later together with their subfolders.
//
// Contract: Events carries absolute, cleaned paths of files created, written,
// removed or renamed (chmod-only events are dropped: editors and indexers
// touch modes without changing content). A path may be reported more than
// once per save; the Batcher deduplicates. The caller must keep receiving
// from both Events and Errors until Close, or the watcher stalls.
type Watcher struct {
	fsw    *fsnotify.Watcher
	ignore func(string) bool
	trees  []string        // folder roots, watched recursively
	files  map[string]bool // file roots, watched by themselves
	events chan string
	errors chan error
	done   chan struct{}
	exited chan struct{}
	once   sync.Once
	err    error
}

// NewWatcher starts watching every folder under each of dirs. Besides the
// built-in rules (node_modules, dot-files and dot-folders such as .git, editor
// temp files), paths for which ignore returns true are skipped — pass
// IgnoreUnder(outDir) to exclude the build output. ignore may be nil.
// A root that does not exist is an error, so a typo in watch_dirs is caught
// at start instead of silently watching nothing. A root that is a file (the
// config file) is watched by itself: its folder is watched, but only events
// for that file are reported (editors save by replacing the file, so watching
// the file's inode would lose it after the first save).
func NewWatcher(dirs []string, ignore func(path string) bool) (*Watcher, error) {
	fsw, err := fsnotify.NewWatcher()
	if err != nil {
		return nil, fmt.Errorf("devserver: start file watcher: %w", err)
	}
	w := &Watcher{
		fsw:    fsw,
		ignore: ignore,
		files:  map[string]bool{},
		events: make(chan string, 64),
		errors: make(chan error, 8),
		done:   make(chan struct{}),
		exited: make(chan struct{}),
	}
	for _, d := range dirs {
		root, err := filepath.Abs(d)
		if err == nil {
			err = w.addRoot(root)
		}
		if err != nil {
			fsw.Close()
			return nil, fmt.Errorf("devserver: watch %q: %w", d, err)
		}
	}
	go w.run()
	return w, nil
}

// Events returns the changed paths. It is closed after Close.
func (w *Watcher) Events() <-chan string { return w.events }

// Errors returns watch errors (queue overflow, a new folder that could not be
// added). They are worth logging, not fatal. It is closed after Close.
func (w *Watcher) Errors() <-chan error { return w.errors }

// Close stops watching and closes Events and Errors. It is safe to call more
// than once.
func (w *Watcher) Close() error {
	w.once.Do(func() {
		close(w.done)
		w.err = w.fsw.Close()
		<-w.exited
		close(w.events)
		close(w.errors)
	})
	return w.err
}

func (w *Watcher) addRoot(root string) error {
	fi, err := os.Stat(root)
	if err != nil {
		return err
	}
	if !fi.IsDir() {
		w.files[root] = true
		return w.fsw.Add(filepath.Dir(root))
	}
	w.trees = append(w.trees, root)
	return w.addTree(root, nil)
}

// inTree reports whether p lies in one of the recursively watched folders.
// Other events come from the folder of a file root and are dropped unless
// they are about that file.
func (w *Watcher) inTree(p string) bool {
	for _, t := range w.trees {
		if within(t, p) {
			return true
		}
	}
	return false
}

func (w *Watcher) skip(path string) bool {
	return ignoredName(filepath.Base(path)) || (w.ignore != nil && w.ignore(path))
}

// addTree watches root and every non-ignored folder below it. The root itself
// is not checked against the ignore rules (the user asked for it). When emit
// is non-nil, files found in the tree are passed to it: a folder that appears
// at once with content (git checkout, mkdir -p && cp, editor "save as")
// produces no Create events for files written before its watch was added.
func (w *Watcher) addTree(root string, emit func(string) bool) error {
	return filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			if p == root {
				return err
			}
			return nil // vanished while walking; its removal has its own event
		}
		if p != root && w.skip(p) {
			if d.IsDir() {
				return filepath.SkipDir
			}
			return nil
		}
		if d.IsDir() {
			// Add before reading the folder's entries, so a file written
			// between the two is either seen by the walk or gets an event.
			return w.fsw.Add(p)
		}
		if emit != nil && !emit(p) {
			return filepath.SkipAll
		}
		return nil
	})
}

func (w *Watcher) run() {
	defer close(w.exited)
	for {
		select {
		case ev, ok := <-w.fsw.Events:
			if !ok {
				return
			}
			if !w.handle(ev) {
				return
			}
		case err, ok := <-w.fsw.Errors:
			if !ok {
				return
			}
			if !w.sendErr(err) {
				return
			}
		case <-w.done:
			return
		}
	}
}

// handle forwards one fsnotify event; it returns false once the watcher is
// closing.
func (w *Watcher) handle(ev fsnotify.Event) bool {
	if ev.Op == fsnotify.Chmod || w.skip(ev.Name) {
		return true
	}
	p := filepath.Clean(ev.Name)
	if !w.inTree(p) {
		if w.files[p] {
			return w.send(p)
		}
		return true
	}
	if ev.Has(fsnotify.Create) && isDir(p) {
		if err := w.addTree(p, w.send); err != nil {
			return w.sendErr(fmt.Errorf("devserver: watch new folder %q: %w", p, err))
		}
		return true
	}
	return w.send(p)
}

func (w *Watcher) send(p string) bool {
	select {
	case w.events <- p:
		return true
	case <-w.done:
		return false
	}
}

func (w *Watcher) sendErr(err error) bool {
	select {
	case w.errors <- err:
		return true
	case <-w.done:
		return false
	}
}

// isDir reports whether p is an existing folder.
func isDir(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && fi.IsDir()
}
