package main

import (
	"bext/internal/loadgen"
	"bufio"
	"context"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"time"

	"bext/engine"
)

// startNode writes the bundle to a temporary file and serves it with
// node-server.cjs on a free loopback port.
func startNode(ctx context.Context, b *engine.Bundle, procs, conns int) (*target, error) {
	node, err := exec.LookPath("node")
	if err != nil {
		return nil, fmt.Errorf("node is not on PATH: %w", err)
	}
	tmp, err := os.MkdirTemp("", "bext-bench-")
	if err != nil {
		return nil, err
	}
	bundle := filepath.Join(tmp, "server.js")
	if err := os.WriteFile(bundle, b.Code, 0o644); err != nil {
		os.RemoveAll(tmp)
		return nil, err
	}
	port, err := freePort()
	if err != nil {
		os.RemoveAll(tmp)
		return nil, err
	}
	cmd := exec.Command(node, serverScript(), bundle, strconv.Itoa(port), strconv.Itoa(procs))
	cmd.Stderr = os.Stderr
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		os.RemoveAll(tmp)
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		os.RemoveAll(tmp)
		return nil, err
	}
	stop := func() {
		// SIGTERM lets the cluster primary stop and reap its workers.
		_ = cmd.Process.Signal(syscall.SIGTERM)
		done := make(chan struct{})
		go func() { _ = cmd.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(5 * time.Second):
			_ = cmd.Process.Kill()
			<-done
		}
		os.RemoveAll(tmp)
	}
	ready := make(chan error, 1)
	go func() {
		sc := bufio.NewScanner(stdout)
		for sc.Scan() {
			if strings.HasPrefix(sc.Text(), "listening ") {
				ready <- nil
				for sc.Scan() { // keep draining so the server never blocks on stdout
				}
				return
			}
		}
		ready <- fmt.Errorf("node-server.cjs exited before listening")
	}()
	select {
	case err := <-ready:
		if err != nil {
			stop()
			return nil, err
		}
	case <-time.After(30 * time.Second):
		stop()
		return nil, fmt.Errorf("node-server.cjs did not start listening within 30s")
	}
	page := func(path string) (loadgen.Loops, error) {
		do, err := loadgen.HTTPGet("http://127.0.0.1:"+strconv.Itoa(port)+path, conns)
		if err != nil {
			return nil, err
		}
		return loadgen.Same(do), nil
	}
	return &target{name: "node", conns: conns, page: page, stop: stop}, nil
}

// serverScript is node-server.cjs beside this source file, or under the
// working directory when the binary was built with -trimpath.
func serverScript() string {
	if _, file, _, ok := runtime.Caller(0); ok {
		p := filepath.Join(filepath.Dir(file), "node-server.cjs")
		if _, err := os.Stat(p); err == nil {
			return p
		}
	}
	return filepath.Join("examples", "bench", "node-server.cjs")
}

func freePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}
