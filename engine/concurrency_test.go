package engine

import (
	"fmt"
	"sync"
	"testing"
)

// One Program run by many isolates at once, as the pool does.
func TestProgramSharedByIsolates(t *testing.T) {
	p := fixtureProgram(t, "kitchen", "server.jsx")
	var wg sync.WaitGroup
	errs := make(chan error, 8)
	for w := range 8 {
		wg.Go(func() {
			iso, err := NewIsolate(p, Options{WorkerID: w})
			if err != nil {
				errs <- err
				return
			}
			defer iso.Close()
			for range 20 {
				for _, path := range []string{"/", "/async", "/syntax"} {
					resp, err := iso.Render(t.Context(), get(path))
					if err != nil {
						errs <- fmt.Errorf("worker %d %s: %w", w, path, err)
						return
					}
					if resp.Status != 200 || resp.HTML == "" {
						errs <- fmt.Errorf("worker %d %s: %+v", w, path, resp)
						return
					}
				}
				_ = iso.Console()
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}

// Console is read by monitors while the owner renders.
func TestConsoleReadDuringRender(t *testing.T) {
	iso := newTestIsolate(t, "console", "server.js", Options{ConsoleLines: 50, Log: discardLog})
	stop := make(chan struct{})
	var wg sync.WaitGroup
	wg.Go(func() {
		for {
			select {
			case <-stop:
				return
			default:
				if n := len(iso.Console()); n > 50 {
					t.Errorf("ring holds %d lines", n)
				}
			}
		}
	})
	req := get("/")
	req.Query["n"] = "20"
	for range 30 {
		mustRender(t, iso, req)
	}
	close(stop)
	wg.Wait()
}
