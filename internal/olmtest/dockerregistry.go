package olmtest

import (
	"bytes"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"
)

// StartRegistry starts Debian's docker-registry on a free 127.0.0.1 port and returns host:port.
func StartRegistry(t testing.TB) string {
	t.Helper()
	bin, err := exec.LookPath("docker-registry")
	if err != nil {
		t.Skip("SKIP: docker-registry is not installed; `make test-deps` installs it (apt-get install docker-registry)")
	}
	dir := t.TempDir()
	for attempt := 0; attempt < 3; attempt++ {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		host := l.Addr().String()
		l.Close()
		cfg := filepath.Join(dir, "config.yml")
		conf := fmt.Sprintf("version: 0.1\nlog: {level: warn}\nstorage: {filesystem: {rootdirectory: %s}}\nhttp: {addr: %s}\n", filepath.Join(dir, "data"), host)
		if err := os.WriteFile(cfg, []byte(conf), 0o644); err != nil {
			t.Fatal(err)
		}
		var logs bytes.Buffer
		cmd := exec.Command(bin, "serve", cfg)
		cmd.Stdout, cmd.Stderr = &logs, &logs
		if err := cmd.Start(); err != nil {
			t.Fatalf("starting docker-registry: %v", err)
		}
		exited := make(chan struct{})
		go func() { cmd.Wait(); close(exited) }()
		stop := func() { cmd.Process.Kill(); <-exited }
		if registryUp(host, exited) {
			t.Cleanup(stop)
			return host
		}
		stop()
		t.Logf("docker-registry on %s did not come up (attempt %d):\n%s", host, attempt+1, logs.String())
	}
	t.Fatal("docker-registry did not start")
	return ""
}

func registryUp(host string, exited <-chan struct{}) bool {
	client := &http.Client{Timeout: time.Second}
	for deadline := time.Now().Add(15 * time.Second); time.Now().Before(deadline); time.Sleep(100 * time.Millisecond) {
		select {
		case <-exited:
			return false
		default:
		}
		resp, err := client.Get("http://" + host + "/v2/")
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return true
			}
		}
	}
	return false
}
