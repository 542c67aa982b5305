package olmharness

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/opack/opack/internal/crdserver"
)

// Cluster is etcd and a kube-apiserver with a kubeconfig, and the controller processes started on it.
type Cluster struct {
	*crdserver.Server
	// Dir holds the servers' data, the controllers' logs (NAME.log) and their files.
	Dir     string
	Root    string // the opack repository
	kubectl string
	mu      sync.Mutex // guards procs: the kubelet starts containers from several goroutines
	procs   []*Process
}

// processes returns the processes started so far.
func (c *Cluster) processes() []*Process {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]*Process(nil), c.procs...)
}

// StartCluster starts etcd and kube-apiserver (built by hack/build-apiserver.sh; kubeArgs added to its
// flags) in a temporary folder and stops everything it started when t ends. It skips without etcd,
// kubectl or a kube-apiserver build, unless CI is set.
func StartCluster(t testing.TB, kubeArgs ...string) *Cluster {
	t.Helper()
	kubectl, err := exec.LookPath("kubectl")
	if err != nil {
		skipOrFail(t, "kubectl is not installed; `make test-deps` installs it (apt-get install kubectl)")
	}
	etcd, err := crdserver.Etcd()
	if err != nil {
		skipOrFail(t, "%v", err)
	}
	root := RepoRoot(t)
	kube, err := Binary(t.Context(), root, "kube-apiserver")
	if err != nil {
		skipOrFail(t, "no kube-apiserver: %v", err)
	}
	ctx, cancel := context.WithTimeout(t.Context(), 5*time.Minute)
	defer cancel()
	dir := t.TempDir()
	srv, err := crdserver.StartKube(ctx, etcd, kube, dir, kubeArgs...)
	if err != nil {
		t.Fatalf("starting kube-apiserver: %v", err)
	}
	c := &Cluster{Server: srv, Dir: dir, Root: root, kubectl: kubectl}
	t.Cleanup(func() {
		if keep := os.Getenv("OLMHARNESS_KEEP"); keep != "" && (t.Failed() || os.Getenv("OLMHARNESS_KEEP_ALL") != "") {
			c.dumpState(t, keep)
		}
		c.stopAll(t)
		srv.Close()
	})
	return c
}

// dumpState copies the processes' logs and the OLM objects (YAML) into dir, for a failed test
// (OLMHARNESS_KEEP=dir).
func (c *Cluster) dumpState(t testing.TB, dir string) {
	dir = filepath.Join(dir, strings.ReplaceAll(t.Name(), "/", "_"))
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Log(err)
		return
	}
	for _, p := range c.processes() {
		if data, err := os.ReadFile(p.LogFile); err == nil {
			os.WriteFile(filepath.Join(dir, filepath.Base(p.LogFile)), data, 0o644)
		}
	}
	// One kind at a time: a cluster has OLM v0's kinds or OLM v1's, and kubectl lists nothing when one
	// of the kinds it is given does not exist.
	var out []byte
	for _, kind := range []string{"installplans", "subscriptions", "clusterserviceversions", "catalogsources", "operatorgroups",
		"jobs", "pods", "deployments", "serviceaccounts", "configmaps", "clustercatalogs", "clusterextensions"} {
		if data, err := c.KubectlCmd("get", "-A", "-o", "yaml", kind).Output(); err == nil {
			out = append(append(out, "---\n"...), data...)
		}
	}
	os.WriteFile(filepath.Join(dir, "objects.yaml"), out, 0o644)
	t.Logf("logs and objects kept in %s", dir)
}

// Kubectl runs kubectl on the cluster and returns its standard output; it fails t on an error.
func (c *Cluster) Kubectl(t testing.TB, args ...string) string {
	t.Helper()
	out, err := c.KubectlCmd(args...).Output()
	if err != nil {
		t.Fatalf("kubectl %s: %v\n%s", strings.Join(args, " "), err, exitStderr(err))
	}
	return string(out)
}

// KubectlCmd returns the command running kubectl on the cluster.
func (c *Cluster) KubectlCmd(args ...string) *exec.Cmd {
	return exec.Command(c.kubectl, append([]string{"--kubeconfig", c.Kubeconfig}, args...)...)
}

// GetJSON reads the object at the API path into v; it reports whether the object exists.
func (c *Cluster) GetJSON(ctx context.Context, path string, v any) (bool, error) {
	code, body, err := c.Do(ctx, http.MethodGet, path, nil)
	if err != nil {
		return false, err
	}
	switch code {
	case http.StatusOK:
		if err := json.Unmarshal(body, v); err != nil {
			return false, fmt.Errorf("decoding GET %s: %w", path, err)
		}
		return true, nil
	case http.StatusNotFound:
		return false, nil
	}
	return false, fmt.Errorf("GET %s: %d %s", path, code, body)
}

// Eventually polls cond every half second until it returns true or an error, or timeout passes; it
// fails t with what cond said last and the controllers' logs.
func (c *Cluster) Eventually(t testing.TB, timeout time.Duration, what string, cond func(ctx context.Context) (bool, string, error)) time.Duration {
	t.Helper()
	start := time.Now()
	ctx, cancel := context.WithTimeout(t.Context(), timeout)
	defer cancel()
	last := ""
	for {
		ok, state, err := cond(ctx)
		if err != nil {
			t.Fatalf("%s: %v\n%s", what, err, c.Logs())
		}
		if ok {
			return time.Since(start)
		}
		last = state
		for _, p := range c.processes() {
			if p.watch && !p.Running() && !p.stopped {
				t.Fatalf("%s: %s exited (%v) while waiting; last state %s\n%s", what, p.Name, p.cmd.ProcessState, last, c.Logs())
			}
		}
		select {
		case <-ctx.Done():
			t.Fatalf("%s: not after %v; last state: %s\n%s", what, timeout, last, c.Logs())
		case <-time.After(500 * time.Millisecond):
		}
	}
}

// Logs returns the end of each process's log, for a failing test.
func (c *Cluster) Logs() string {
	var b strings.Builder
	b.WriteString(c.Server.Logs())
	for _, p := range c.processes() {
		fmt.Fprintf(&b, "--- %s (%s)\n%s\n", p.Name, p.LogFile, p.Tail(6<<10))
	}
	return b.String()
}

// Process is a controller (or a program of a pod) started by the harness.
type Process struct {
	Name    string
	LogFile string
	cmd     *exec.Cmd
	done    chan struct{}
	stopped bool
	watch   bool // a controller: its exit fails the test
}

// Start starts bin with args and env (added to the controllers' environment, see ControllerEnv) as a
// process that dies with the test binary, its output in Dir/NAME.log. It is stopped when t ends.
func (c *Cluster) Start(t testing.TB, name, bin string, env []string, args ...string) *Process {
	t.Helper()
	p, err := c.start(name, exec.Command(bin, args...), env)
	if err != nil {
		t.Fatal(err)
	}
	p.watch = true
	return p
}

func (c *Cluster) start(name string, cmd *exec.Cmd, env []string) (*Process, error) {
	logFile := filepath.Join(c.Dir, name+".log")
	f, err := os.OpenFile(logFile, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		return nil, fmt.Errorf("creating the log of %s: %w", name, err)
	}
	defer f.Close()     // the child holds its own descriptor
	if cmd.Env == nil { // a container's environment is its own
		cmd.Env = append(ControllerEnv(), env...)
	}
	cmd.Stdout, cmd.Stderr = f, f
	if cmd.SysProcAttr == nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{}
	}
	cmd.SysProcAttr.Pdeathsig = syscall.SIGKILL // a test timeout panics past the cleanups
	for attempt := 0; ; attempt++ {
		err := cmd.Start()
		if err == nil {
			break
		}
		if !errors.Is(err, syscall.ETXTBSY) || attempt == 20 {
			return nil, fmt.Errorf("starting %s: %w", name, err)
		}
		// The program was just copied into the container's root, and a fork by another goroutine still
		// holds the copy's write descriptor until that child execs (golang/go#22315): try again.
		time.Sleep(time.Duration(attempt+1) * 20 * time.Millisecond) // 4.2 s in all
		cmd = &exec.Cmd{Path: cmd.Path, Args: cmd.Args, Env: cmd.Env, Dir: cmd.Dir, Stdout: cmd.Stdout, Stderr: cmd.Stderr,
			SysProcAttr: cmd.SysProcAttr}
	}
	p := &Process{Name: name, LogFile: logFile, cmd: cmd, done: make(chan struct{})}
	go func() { cmd.Wait(); close(p.done) }()
	c.mu.Lock()
	c.procs = append(c.procs, p)
	c.mu.Unlock()
	return p, nil
}

// ControllerEnv is the test's environment without CI (see the package documentation).
func ControllerEnv() []string {
	var env []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "CI=") {
			env = append(env, kv)
		}
	}
	return env
}

// Running reports whether the process has not exited.
func (p *Process) Running() bool {
	select {
	case <-p.done:
		return false
	default:
		return true
	}
}

// Tail returns the last n bytes of the process's log.
func (p *Process) Tail(n int64) string {
	data, err := os.ReadFile(p.LogFile)
	if err != nil {
		return err.Error()
	}
	if int64(len(data)) > n {
		data = data[int64(len(data))-n:]
	}
	return string(data)
}

// Stop kills the process by its PID and waits for it.
func (p *Process) Stop() error {
	p.stopped = true
	if err := p.cmd.Process.Kill(); err != nil && !errors.Is(err, os.ErrProcessDone) {
		return fmt.Errorf("killing %s (pid %d): %w", p.Name, p.cmd.Process.Pid, err)
	}
	<-p.done
	return nil
}

func (c *Cluster) stopAll(t testing.TB) {
	procs := c.processes()
	for i := len(procs) - 1; i >= 0; i-- {
		if err := procs[i].Stop(); err != nil {
			t.Error(err)
		}
	}
	c.mu.Lock()
	c.procs = nil
	c.mu.Unlock()
}
