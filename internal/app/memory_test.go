package app_test

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"path/filepath"
	"runtime"
	"sync"
	"testing"

	"bext/config"
	"bext/internal/app"
	"bext/internal/apptest"
)

// TestLeakyAppHeapBoundedByMaxMemory serves examples/leaky (each render
// keeps ~100 KB in a closure) twice over HTTP: with max_memory_mb = 8 the
// process's live heap stays bounded while workers rotate for max_memory;
// with max_memory_mb = 0 it grows by ~100 KB per request, linearly.
func TestLeakyAppHeapBoundedByMaxMemory(t *testing.T) {
	const (
		requests = 800
		chunks   = 4
		perReq   = 100 << 10
	)
	run := func(maxMB int) (growth []int64, rotations int) {
		inst, err := app.Start(context.Background(), apptest.Config(t, filepath.Join(apptest.RepoRoot(), "examples/leaky/config.toml"), func(c *config.Config) {
			c.Render.JSCWorkers = 2
			c.Render.Lifecycle.MaxMemoryMB = int64(maxMB)
			c.Render.Lifecycle.MemoryCheckMS = 10
		}), app.Options{Log: apptest.QuietLog})
		if err != nil {
			t.Fatal(err)
		}
		defer inst.Stop()
		base := liveHeap()
		client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 4, DisableCompression: true}}
		defer client.CloseIdleConnections()
		for chunk := range chunks {
			var wg sync.WaitGroup
			for g := range 4 {
				wg.Go(func() {
					for i := range requests / chunks / 4 {
						url := fmt.Sprintf("http://%s/c%d/g%d/%d", inst.Addr(), chunk, g, i)
						resp, err := client.Get(url)
						if err != nil {
							t.Error(err)
							return
						}
						io.Copy(io.Discard, resp.Body)
						resp.Body.Close()
						if resp.StatusCode != http.StatusOK {
							t.Errorf("GET %s: %d", url, resp.StatusCode)
						}
					}
				})
			}
			wg.Wait()
			growth = append(growth, liveHeap()-base)
		}
		for _, st := range inst.Pool().Snapshot() {
			rotations += st.Restarts
			if st.Restarts > 0 && st.LastRotationReason != "max_memory" {
				t.Errorf("worker %d rotated for %q, want max_memory", st.ID, st.LastRotationReason)
			}
		}
		return growth, rotations
	}

	bounded, rotations := run(8)
	unbounded, none := run(0)
	t.Logf("live heap growth per %d requests, max_memory_mb=8: %v MB (%d rotations); max_memory_mb=0: %v MB",
		requests/chunks, mb(bounded), rotations, mb(unbounded))
	if t.Failed() {
		return
	}

	// Without a limit: all of it stays, chunk after chunk.
	if none != 0 {
		t.Errorf("%d rotations with max_memory_mb = 0", none)
	}
	for i, g := range unbounded {
		want := int64(i+1) * requests / chunks * perReq
		if g < want*8/10 || g > want*13/10 {
			t.Errorf("max_memory_mb = 0: live heap grew %d MB after %d requests, want ~%d MB (linear)",
				g>>20, (i+1)*requests/chunks, want>>20)
		}
	}
	// With the limit: each of the 2 workers holds at most 8 MB plus what it
	// gathers between two checks, and its replacement starts empty.
	if rotations < 4 {
		t.Errorf("%d rotations with max_memory_mb = 8 over %d requests (~%d MB leaked), want several",
			rotations, requests, requests*perReq>>20)
	}
	for i, g := range bounded {
		if g > 40<<20 {
			t.Errorf("max_memory_mb = 8: live heap grew %d MB after %d requests, want it bounded (< 40 MB)",
				g>>20, (i+1)*requests/chunks)
		}
	}
}

// liveHeap is the process's live heap after a full collection.
func liveHeap() int64 {
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return int64(m.HeapAlloc)
}

func mb(bs []int64) []float64 {
	out := make([]float64, len(bs))
	for i, b := range bs {
		out[i] = float64(b*10>>20) / 10
	}
	return out
}
