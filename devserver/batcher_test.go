package devserver

import (
	"slices"
	"testing"
	"testing/synctest"
	"time"
)

// recv returns the batch that is ready now, or nil. Call after synctest.Wait.
func recv(t *testing.T, b *Batcher) []string {
	t.Helper()
	select {
	case batch, ok := <-b.Batches():
		if !ok {
			t.Fatal("Batches closed unexpectedly")
		}
		return batch
	default:
		return nil
	}
}

func TestBatcherBurstIsOneBatchAfterQuietWindow(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		in := make(chan string)
		b := NewBatcher(in, 500*time.Millisecond)
		start := time.Now()
		names := []string{"/app/c.ts", "/app/a.ts", "/app/b.css"}
		// 10 saves over 180ms (one every 20ms), with repeats.
		for i := range 10 {
			if i > 0 {
				time.Sleep(20 * time.Millisecond)
			}
			in <- names[i%len(names)]
		}
		last := time.Since(start)
		if last != 180*time.Millisecond {
			t.Fatalf("setup: last save at %v", last)
		}

		// Just before the window closes: nothing yet.
		time.Sleep(499 * time.Millisecond)
		synctest.Wait()
		if got := recv(t, b); got != nil {
			t.Fatalf("batch %v after %v, before the debounce window closed", got, time.Since(start))
		}
		time.Sleep(time.Millisecond)
		synctest.Wait()
		got := recv(t, b)
		want := []string{"/app/a.ts", "/app/b.css", "/app/c.ts"}
		if !slices.Equal(got, want) {
			t.Fatalf("batch = %v, want %v (deduplicated, sorted)", got, want)
		}
		if at := time.Since(start); at != 680*time.Millisecond {
			t.Fatalf("batch at %v, want 680ms (last save + debounce)", at)
		}

		// No second batch follows.
		time.Sleep(time.Hour)
		synctest.Wait()
		if got := recv(t, b); got != nil {
			t.Fatalf("extra batch %v", got)
		}
		close(in)
	})
}

func TestBatcherTwoBurstsTwoBatches(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		in := make(chan string)
		b := NewBatcher(in, 100*time.Millisecond)
		in <- "/a"
		in <- "/b"
		time.Sleep(150 * time.Millisecond)
		synctest.Wait()
		if got := recv(t, b); !slices.Equal(got, []string{"/a", "/b"}) {
			t.Fatalf("first batch = %v", got)
		}
		in <- "/c"
		time.Sleep(150 * time.Millisecond)
		synctest.Wait()
		if got := recv(t, b); !slices.Equal(got, []string{"/c"}) {
			t.Fatalf("second batch = %v", got)
		}
		close(in)
	})
}

func TestBatcherSlowConsumerGetsMergedBatch(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		in := make(chan string)
		b := NewBatcher(in, 100*time.Millisecond)
		in <- "/b"
		time.Sleep(time.Second) // first batch ready, consumer busy
		in <- "/a"              // input is still accepted
		in <- "/b"
		time.Sleep(time.Second)
		synctest.Wait()
		if got := recv(t, b); !slices.Equal(got, []string{"/a", "/b"}) {
			t.Fatalf("batch = %v, want both bursts merged", got)
		}
		synctest.Wait()
		if got := recv(t, b); got != nil {
			t.Fatalf("extra batch %v", got)
		}
		close(in)
	})
}

func TestBatcherCloseFlushesAtOnceThenEnds(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		in := make(chan string)
		b := NewBatcher(in, time.Minute)
		start := time.Now()
		in <- "/x"
		in <- "/x"
		close(in)
		got, ok := <-b.Batches()
		if !ok || !slices.Equal(got, []string{"/x"}) {
			t.Fatalf("flush = %v, %v", got, ok)
		}
		if d := time.Since(start); d != 0 {
			t.Fatalf("flush waited %v for the debounce", d)
		}
		if got, ok := <-b.Batches(); ok {
			t.Fatalf("Batches not closed after flush, got %v", got)
		}
	})
}

func TestBatcherCloseWithNothingPendingEnds(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		in := make(chan string)
		b := NewBatcher(in, time.Second)
		in <- "/x"
		time.Sleep(2 * time.Second)
		synctest.Wait()
		if got := recv(t, b); !slices.Equal(got, []string{"/x"}) {
			t.Fatalf("batch = %v", got)
		}
		close(in)
		if got, ok := <-b.Batches(); ok {
			t.Fatalf("got batch %v after close with nothing pending", got)
		}
	})
}
