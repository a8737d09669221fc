package testenv

import (
	"bufio"
	"fmt"
	"net"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// RedisServer is Debian's redis-server run by a test on a free loopback
// port, without persistence. Stop and Start take it away and bring it back
// on the same port (an outage); the test's end stops it.
type RedisServer struct {
	URL  string // redis://127.0.0.1:PORT/0
	Addr string

	t    testing.TB
	bin  string
	dir  string
	mu   sync.Mutex
	cmd  *exec.Cmd
	done chan struct{}
}

// Redis starts a redis-server for t (see Tool for when it is missing).
func Redis(t testing.TB) *RedisServer {
	t.Helper()
	bin := Tool(t, "redis-server", "install Debian's redis-server (apt-get install redis-server)")
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	r := &RedisServer{URL: "redis://" + addr + "/0", Addr: addr, t: t, bin: bin, dir: t.TempDir()}
	r.Start()
	t.Cleanup(r.Stop)
	return r
}

// Start runs the server (again) and returns once it answers PING.
func (r *RedisServer) Start() {
	r.t.Helper()
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.cmd != nil {
		return
	}
	_, port, _ := net.SplitHostPort(r.Addr)
	cmd := exec.Command(r.bin, "--port", port, "--bind", "127.0.0.1", "--save", "", "--appendonly", "no",
		"--dir", r.dir, "--protected-mode", "no", "--loglevel", "warning")
	if err := cmd.Start(); err != nil {
		r.t.Fatalf("redis-server: %v", err)
	}
	r.cmd, r.done = cmd, make(chan struct{})
	go func(done chan struct{}) { cmd.Wait(); close(done) }(r.done)
	deadline := time.Now().Add(10 * time.Second)
	for {
		if err := ping(r.Addr); err == nil {
			return
		} else if time.Now().After(deadline) {
			r.t.Fatalf("redis-server on %s did not answer PING within 10 s: %v", r.Addr, err)
		}
		select {
		case <-r.done:
			r.t.Fatalf("redis-server on %s exited at start (port taken?)", r.Addr)
		case <-time.After(10 * time.Millisecond):
		}
	}
}

// Stop kills the server (as a crash would: clients see their connections
// reset) and waits for it to exit.
func (r *RedisServer) Stop() {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.cmd == nil {
		return
	}
	r.cmd.Process.Kill()
	<-r.done
	r.cmd = nil
}

// ping sends PING in the inline protocol and expects +PONG.
func ping(addr string) error {
	c, err := net.DialTimeout("tcp", addr, time.Second)
	if err != nil {
		return err
	}
	defer c.Close()
	c.SetDeadline(time.Now().Add(time.Second))
	if _, err := c.Write([]byte("PING\r\n")); err != nil {
		return err
	}
	line, err := bufio.NewReader(c).ReadString('\n')
	if err != nil {
		return err
	}
	if strings.TrimSpace(line) != "+PONG" {
		return fmt.Errorf("PING answered %q", strconv.Quote(line))
	}
	return nil
}
