package devserver

import (
	"slices"
	"time"
)

// Batcher turns a stream of changed paths into batches with a trailing
// debounce: every event restarts the window, and a batch is emitted once no
// event has arrived for the debounce duration. A save that touches many
// files (formatters, git checkout, an editor writing a temp file and renaming
// it) thus becomes one rebuild instead of many.
//
// The Batcher never blocks its input on a slow consumer: while a batch waits
// to be received, new events keep being collected, and when their window
// closes they are merged into the waiting batch. The consumer therefore
// always gets every path, in as few batches as it can keep up with.
type Batcher struct {
	out chan []string
}

// NewBatcher starts batching in. Batches carries deduplicated, sorted paths.
// When in is closed, pending paths are flushed at once (no debounce wait) and
// Batches is closed after the last batch is received; the consumer must read
// Batches until then.
func NewBatcher(in <-chan string, debounce time.Duration) *Batcher {
	b := &Batcher{out: make(chan []string)}
	go b.run(in, debounce)
	return b
}

// Batches returns the debounced batches.
func (b *Batcher) Batches() <-chan []string { return b.out }

func (b *Batcher) run(in <-chan string, debounce time.Duration) {
	defer close(b.out)
	pending := map[string]struct{}{} // inside the current window
	ready := map[string]struct{}{}   // window closed, waiting for the consumer
	timer := time.NewTimer(debounce)
	timer.Stop()
	var fire <-chan time.Time // nil while no window is open
	var batch []string        // sorted(ready), nil while nothing is ready
	for {
		var out chan<- []string // nil disables the send case
		if batch != nil {
			out = b.out
		}
		select {
		case p, ok := <-in:
			if !ok {
				timer.Stop()
				merge(ready, pending)
				if len(ready) > 0 {
					b.out <- sorted(ready)
				}
				return
			}
			pending[p] = struct{}{}
			timer.Reset(debounce)
			fire = timer.C
		case <-fire:
			fire = nil
			merge(ready, pending)
			clear(pending)
			batch = sorted(ready)
		case out <- batch:
			clear(ready)
			batch = nil
		}
	}
}

func merge(dst, src map[string]struct{}) {
	for p := range src {
		dst[p] = struct{}{}
	}
}

func sorted(set map[string]struct{}) []string {
	s := make([]string, 0, len(set))
	for p := range set {
		s = append(s, p)
	}
	slices.Sort(s)
	return s
}
