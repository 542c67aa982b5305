package olmtest

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/operator-framework/operator-registry/pkg/api"
	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
)

// The pod OLM v0 builds for a CatalogSource (reconciler.go): restricted security context with the
// catalog operator's default workload user 1001 (group 0: the user has no passwd entry); the registry
// on port 50051; with extractContent, the emptyDir volumes /utilities and /extracted-catalog.
const (
	workloadUID   = 1001
	registryPort  = "50051"
	utilitiesPath = "/utilities"
	catalogPath   = "/extracted-catalog"
	startTimeout  = 3 * time.Minute
)

// Pod is a running emulated catalog pod.
type Pod struct {
	Client api.RegistryClient
	// Startup is the time from starting the server until it first answered ListPackages.
	Startup time.Duration
	logs    *lockedBuffer
}

// Logs returns what the pod's containers printed so far.
func (p *Pod) Logs() string { return p.logs.String() }

// StartExtractContent runs the pod OLM v0 builds for a CatalogSource with
// spec.grpcPodConfig.extractContent {catalogDir, cacheDir} on the catalog image img: the
// extract-content init container runs copy-content in the image (as uid 1001, like every container of
// the pod), copying catalogDir and, when cacheDir is set, cacheDir into the /extracted-catalog volume;
// then the registry container runs OLM's opm image with `/bin/opm serve /extracted-catalog/catalog
// [--cache-dir=/extracted-catalog/cache]` (with an emptyDir on /tmp when there is no cacheDir), as uid
// 1001 on a root filesystem it cannot write to. An error means the pod would not become ready.
func StartExtractContent(t testing.TB, tools Tools, img *Image, catalogDir, cacheDir string) (*Pod, error) {
	t.Helper()
	logs := &lockedBuffer{}
	// extract-utilities copies copy-content into /utilities; extract-content runs it in the catalog image.
	utilities := filepath.Join(img.Root, utilitiesPath)
	content := filepath.Join(img.Root, catalogPath)
	for _, d := range []string{utilities, content} {
		mkEmptyDir(t, d)
	}
	copyFile(t, tools.CopyContent, filepath.Join(utilities, "copy-content"))
	kubeletFiles(t, img.Root)
	args := []string{"--catalog.from=" + catalogDir, "--catalog.to=" + catalogPath + "/catalog"}
	if cacheDir != "" {
		args = append(args, "--cache.from="+cacheDir, "--cache.to="+catalogPath+"/cache")
	}
	initc := chrooted(img.Root, utilitiesPath+"/copy-content", args...)
	initc.Stdout, initc.Stderr = logs, logs
	if err := initc.Run(); err != nil {
		return nil, fmt.Errorf("init container extract-content (copy-content %v) failed: %v\n%s", args, err, logs)
	}
	// The registry container: OLM's opm image with the two volumes mounted.
	root := filepath.Join(t.TempDir(), "opm-image")
	copyFile(t, tools.OPM, filepath.Join(root, "bin", "opm"))
	if err := os.Rename(content, filepath.Join(root, catalogPath)); err != nil { // the shared emptyDir
		t.Fatal(err)
	}
	serve := []string{"serve", filepath.Join(catalogPath, "catalog")}
	if cacheDir != "" {
		serve = append(serve, "--cache-dir="+filepath.Join(catalogPath, "cache"))
	} else {
		mkEmptyDir(t, filepath.Join(root, "tmp"))
	}
	kubeletFiles(t, root)
	return start(t, logs, chrooted(root, "/bin/opm", serve...))
}

// StartImage runs the pod OLM v0 builds for a CatalogSource without extractContent: the catalog image's
// own entrypoint and command, as uid 1001.
func StartImage(t testing.TB, img *Image) (*Pod, error) {
	t.Helper()
	argv := append(append([]string{}, img.Config.Entrypoint...), img.Config.Cmd...)
	if len(argv) == 0 {
		return nil, fmt.Errorf("the image has neither ENTRYPOINT nor CMD: it cannot run as a catalog pod")
	}
	kubeletFiles(t, img.Root)
	return start(t, &lockedBuffer{}, chrooted(img.Root, argv[0], argv[1:]...))
}

// kubeletFiles writes the files kubelet mounts into every container (opm resolves localhost for its
// pprof endpoint).
func kubeletFiles(t testing.TB, root string) {
	t.Helper()
	etc := filepath.Join(root, "etc")
	if err := os.MkdirAll(etc, 0o755); err != nil {
		t.Fatal(err)
	}
	files := map[string]string{
		"hosts":       "127.0.0.1\tlocalhost\n::1\tlocalhost ip6-localhost ip6-loopback\n",
		"resolv.conf": "nameserver 127.0.0.1\noptions ndots:5\n",
		"hostname":    "catalog-pod\n",
	}
	for name, data := range files {
		if err := os.WriteFile(filepath.Join(etc, name), []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	mkEmptyDir(t, filepath.Join(root, "dev")) // kubelet mounts the termination log here
}

func chrooted(root, name string, args ...string) *exec.Cmd {
	cmd := exec.Command(name, args...)
	cmd.Path = name // resolved inside the chroot
	cmd.Dir = "/"
	cmd.Env = []string{"PATH=/usr/local/bin:/usr/bin:/bin", "HOME=/"}
	cmd.SysProcAttr = &syscall.SysProcAttr{
		Chroot:     root,
		Credential: &syscall.Credential{Uid: workloadUID, Gid: 0},
		Setpgid:    true,
		Pdeathsig:  syscall.SIGKILL,
	}
	return cmd
}

// start runs the registry container in a new network namespace and waits until it answers.
func start(t testing.TB, logs *lockedBuffer, cmd *exec.Cmd) (*Pod, error) {
	t.Helper()
	ns := NewNetNS(t)
	cmd.Stdout, cmd.Stderr = logs, logs
	var err error
	began := time.Now()
	ns.Run(func() { err = cmd.Start() })
	if err != nil {
		return nil, fmt.Errorf("starting %s: %v", cmd.Args, err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	t.Cleanup(func() {
		_ = cmd.Process.Kill() // by its PID
		<-exited
	})
	conn, err := grpc.NewClient("passthrough:///127.0.0.1:"+registryPort,
		grpc.WithTransportCredentials(insecure.NewCredentials()), grpc.WithContextDialer(ns.Dial))
	if err != nil {
		return nil, err
	}
	t.Cleanup(func() { conn.Close() })
	client := api.NewRegistryClient(conn)
	deadline := time.After(startTimeout)
	for {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		stream, err := client.ListPackages(ctx, &api.ListPackageRequest{})
		if err == nil {
			_, err = stream.Recv()
			if err == io.EOF {
				err = nil
			}
		}
		cancel()
		if err == nil {
			return &Pod{Client: client, Startup: time.Since(began), logs: logs}, nil
		}
		select {
		case werr := <-exited:
			exited <- werr
			return nil, fmt.Errorf("%s exited before serving: %v\n%s", cmd.Args, werr, logs)
		case <-deadline:
			return nil, fmt.Errorf("%s did not serve within %s: %v\n%s", cmd.Args, startTimeout, err, logs)
		case <-time.After(200 * time.Millisecond):
		}
	}
}

// mkEmptyDir makes a folder as kubelet makes an emptyDir volume: world-writable.
func mkEmptyDir(t testing.TB, dir string) {
	t.Helper()
	if err := os.MkdirAll(dir, 0o777); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(dir, 0o777); err != nil {
		t.Fatal(err)
	}
}

func copyFile(t testing.TB, src, dst string) {
	t.Helper()
	data, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(dst, data, 0o755); err != nil {
		t.Fatal(err)
	}
}

type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}
