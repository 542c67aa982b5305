package crdserver

import (
	"bytes"
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"sync"
	"time"
)

// Server is a running etcd and apiextensions-apiserver pair on loopback.
type Server struct {
	// URL is the API server's base URL, https://127.0.0.1:PORT.
	URL string
	// Kubeconfig is the path of a kubeconfig for kubectl (StartKube only).
	Kubeconfig string
	client     *http.Client
	procs      []*process
	etcdURL    string
}

// process is a started binary and its combined output.
type process struct {
	name string
	cmd  *exec.Cmd
	out  *syncBuffer
	done chan struct{}
}

// Start starts etcd (etcdBin) and the API server (apiserverBin) with their data, certificates and logs
// under dir, and waits until the API server is ready. The caller must Close the server.
func Start(ctx context.Context, etcdBin, apiserverBin, dir string) (*Server, error) {
	s, p, err := start(ctx, etcdBin, dir)
	if err != nil {
		return nil, err
	}
	if err := s.startAPIServer(ctx, apiserverBin, dir, s.etcdURL, p); err != nil {
		s.Close()
		return nil, err
	}
	return s, nil
}

// start makes the certificates under dir and starts etcd.
func start(ctx context.Context, etcdBin, dir string) (*Server, *pki, error) {
	p, err := newPKI(dir)
	if err != nil {
		return nil, nil, err
	}
	s := &Server{client: &http.Client{Timeout: 30 * time.Second, Transport: &http.Transport{
		TLSClientConfig: &tls.Config{RootCAs: p.roots, Certificates: []tls.Certificate{p.client}, MinVersion: tls.VersionTLS12}}}}
	if s.etcdURL, err = s.startEtcd(ctx, etcdBin, dir); err != nil {
		s.Close()
		return nil, nil, err
	}
	return s, p, nil
}

func (s *Server) startEtcd(ctx context.Context, bin, dir string) (string, error) {
	ports, err := freePorts(2)
	if err != nil {
		return "", err
	}
	client, peer := "http://127.0.0.1:"+ports[0], "http://127.0.0.1:"+ports[1]
	p, err := s.spawn("etcd", bin, "--name", "opack-test", "--data-dir", filepath.Join(dir, "etcd"),
		"--listen-client-urls", client, "--advertise-client-urls", client,
		"--listen-peer-urls", peer, "--initial-advertise-peer-urls", peer, "--initial-cluster", "opack-test="+peer,
		"--log-level", "warn", "--quota-backend-bytes", strconv.Itoa(1<<30))
	if err != nil {
		return "", err
	}
	plain := &http.Client{Timeout: 2 * time.Second}
	err = p.waitFor(ctx, 60*time.Second, func() bool {
		resp, err := plain.Get(client + "/health")
		if err != nil {
			return false
		}
		resp.Body.Close()
		return resp.StatusCode == http.StatusOK
	})
	return client, err
}

func (s *Server) startAPIServer(ctx context.Context, bin, dir, etcdURL string, p *pki) error {
	ports, err := freePorts(1)
	if err != nil {
		return err
	}
	kubeconfig := filepath.Join(dir, "dummy.kubeconfig")
	if err := os.WriteFile(kubeconfig, []byte(dummyKubeconfig), 0o600); err != nil {
		return fmt.Errorf("writing %s: %w", kubeconfig, err)
	}
	proc, err := s.spawn("apiextensions-apiserver", bin,
		"--etcd-servers", etcdURL, "--etcd-prefix", "/opack-test",
		"--bind-address", "127.0.0.1", "--secure-port", ports[0], "--cert-dir", filepath.Join(dir, "certs"),
		"--tls-cert-file", p.certFile, "--tls-private-key-file", p.keyFile, "--client-ca-file", p.caFile,
		"--authentication-skip-lookup", "--authentication-kubeconfig", kubeconfig,
		"--authorization-kubeconfig", kubeconfig, "--kubeconfig", kubeconfig,
		"--enable-priority-and-fairness=false",
		"--disable-admission-plugins", "NamespaceLifecycle,MutatingAdmissionWebhook,ValidatingAdmissionWebhook,ValidatingAdmissionPolicy,MutatingAdmissionPolicy")
	if err != nil {
		return err
	}
	s.URL = "https://127.0.0.1:" + ports[0]
	return proc.waitFor(ctx, 120*time.Second, func() bool {
		code, _, err := s.Do(ctx, http.MethodGet, "/readyz?exclude=informer-sync", nil)
		return err == nil && code == http.StatusOK
	})
}

const dummyKubeconfig = `apiVersion: v1
kind: Config
clusters:
- cluster:
    server: http://127.1.2.3:12345
  name: integration
contexts:
- context:
    cluster: integration
    user: test
  name: default-context
current-context: default-context
users:
- name: test
  user:
    password: test
    username: test
`

func (s *Server) spawn(name, bin string, args ...string) (*process, error) {
	p := &process{name: name, cmd: exec.Command(bin, args...), out: &syncBuffer{}, done: make(chan struct{})}
	p.cmd.Stdout, p.cmd.Stderr = p.out, p.out
	dieWithParent(p.cmd)
	if err := p.cmd.Start(); err != nil {
		return nil, fmt.Errorf("starting %s: %w", name, err)
	}
	go func() { p.cmd.Wait(); close(p.done) }()
	s.procs = append(s.procs, p)
	return p, nil
}

// waitFor polls ready until it is true, the process exits, or the timeout passes.
func (p *process) waitFor(ctx context.Context, timeout time.Duration, ready func() bool) error {
	deadline := time.Now().Add(timeout)
	for {
		if ready() {
			return nil
		}
		select {
		case <-p.done:
			return fmt.Errorf("%s exited before it was ready (%v):\n%s", p.name, p.cmd.ProcessState, p.out.tail())
		case <-ctx.Done():
			return fmt.Errorf("waiting for %s: %w", p.name, ctx.Err())
		case <-time.After(250 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("%s not ready after %v:\n%s", p.name, timeout, p.out.tail())
		}
	}
}

// Close kills the API server and etcd by PID (the API server first) and waits for them to exit.
func (s *Server) Close() error {
	var errs []error
	for i := len(s.procs) - 1; i >= 0; i-- {
		p := s.procs[i]
		if err := p.cmd.Process.Kill(); err != nil && !errors.Is(err, os.ErrProcessDone) {
			errs = append(errs, fmt.Errorf("killing %s (pid %d): %w", p.name, p.cmd.Process.Pid, err))
		}
		<-p.done
	}
	s.procs = nil
	return errors.Join(errs...)
}

// Logs returns the last lines of each process's output, for a failing test.
func (s *Server) Logs() string {
	var b bytes.Buffer
	for _, p := range s.procs {
		fmt.Fprintf(&b, "--- %s (pid %d)\n%s\n", p.name, p.cmd.Process.Pid, p.out.tail())
	}
	return b.String()
}

// Do sends a request with a JSON body (nil for none) and returns the status code and the response body.
func (s *Server) Do(ctx context.Context, method, path string, body []byte) (int, []byte, error) {
	var r io.Reader
	if body != nil {
		r = bytes.NewReader(body)
	}
	req, err := http.NewRequestWithContext(ctx, method, s.URL+path, r)
	if err != nil {
		return 0, nil, fmt.Errorf("building %s %s: %w", method, path, err)
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	return s.DoRequest(req)
}

// DoRequest sends req as the server's admin client (Accept: application/json unless set) and returns the
// status code and the response body.
func (s *Server) DoRequest(req *http.Request) (int, []byte, error) {
	method, path := req.Method, req.URL.Path
	if req.Header.Get("Accept") == "" {
		req.Header.Set("Accept", "application/json")
	}
	resp, err := s.client.Do(req)
	if err != nil {
		return 0, nil, fmt.Errorf("sending %s %s: %w", method, path, err)
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	if err != nil {
		return 0, nil, fmt.Errorf("reading the response to %s %s: %w", method, path, err)
	}
	return resp.StatusCode, data, nil
}

// freePorts returns n distinct loopback ports that were free a moment ago.
func freePorts(n int) ([]string, error) {
	var out []string
	var ls []net.Listener
	defer func() {
		for _, l := range ls {
			l.Close()
		}
	}()
	for range n {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			return nil, fmt.Errorf("finding a free loopback port: %w", err)
		}
		ls = append(ls, l)
		out = append(out, strconv.Itoa(l.Addr().(*net.TCPAddr).Port))
	}
	return out, nil
}

// syncBuffer collects a process's output; tail returns its last 4 KiB.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.buf.Len() > 1<<20 {
		b.buf.Next(b.buf.Len() - 64<<10) // keep the last 64 KiB of a chatty process
	}
	return b.buf.Write(p)
}

func (b *syncBuffer) tail() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	data := b.buf.Bytes()
	if len(data) > 4096 {
		data = data[len(data)-4096:]
	}
	return string(data)
}
