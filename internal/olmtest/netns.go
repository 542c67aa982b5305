package olmtest

import (
	"context"
	"fmt"
	"net"
	"runtime"
	"testing"

	"golang.org/x/sys/unix"
)

// NetNS is a network namespace of the test's own holding only a loopback interface, like a pod's: the
// servers started in it (opm listens on every interface, and on localhost:6060 for pprof) are
// reachable from nowhere else, and several can use the same ports. Everything that must happen inside
// runs on one locked OS thread.
type NetNS struct{ do chan func() }

// NewNetNS creates a network namespace with its loopback interface up; it goes away when t ends.
func NewNetNS(t testing.TB) *NetNS {
	t.Helper()
	n := &NetNS{do: make(chan func())}
	ready := make(chan error)
	go func() {
		runtime.LockOSThread() // never unlocked: the thread ends with the goroutine, namespace and all
		err := unix.Unshare(unix.CLONE_NEWNET)
		if err == nil {
			err = loopbackUp()
		}
		ready <- err
		if err != nil {
			return
		}
		for f := range n.do {
			f()
		}
	}()
	if err := <-ready; err != nil {
		t.Fatalf("creating a network namespace: %v", err)
	}
	t.Cleanup(func() { close(n.do) })
	return n
}

// Run calls f on the namespace's thread: sockets it opens and processes it starts live in the namespace.
func (n *NetNS) Run(f func()) {
	done := make(chan struct{})
	n.do <- func() { defer close(done); f() }
	<-done
}

// Dial opens a TCP connection inside the namespace (for grpc.WithContextDialer).
func (n *NetNS) Dial(ctx context.Context, addr string) (net.Conn, error) {
	var c net.Conn
	var err error
	n.Run(func() { c, err = (&net.Dialer{}).DialContext(ctx, "tcp", addr) })
	return c, err
}

func loopbackUp() error {
	fd, err := unix.Socket(unix.AF_INET, unix.SOCK_DGRAM|unix.SOCK_CLOEXEC, 0)
	if err != nil {
		return err
	}
	defer unix.Close(fd)
	ifr, err := unix.NewIfreq("lo")
	if err != nil {
		return err
	}
	if err := unix.IoctlIfreq(fd, unix.SIOCGIFFLAGS, ifr); err != nil {
		return fmt.Errorf("reading lo flags: %w", err)
	}
	ifr.SetUint16(ifr.Uint16() | unix.IFF_UP)
	if err := unix.IoctlIfreq(fd, unix.SIOCSIFFLAGS, ifr); err != nil {
		return fmt.Errorf("bringing lo up: %w", err)
	}
	return nil
}
