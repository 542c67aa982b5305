package olmharness

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"net"
	"strconv"
	"strings"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/labels"
)

// ServiceRouter plays cluster DNS and kube-proxy for the Services of the pods the kubelet runs: a SOCKS5
// proxy on 127.0.0.1 that resolves <service>.<namespace>.svc[.cluster.local]:<port> to a pod the Service
// selects and connects to the target port inside that pod's network namespace. catalog-operator reaches
// catalog pods through it with GRPC_PROXY=socks5://ADDR, the proxy setting OLM v0 reads for exactly this
// (pkg/controller/registry/grpc/source.go grpcProxyURL: a catalog-operator outside the cluster of its
// catalog pods); nothing else is routed.
type ServiceRouter struct {
	Addr string // host:port of the SOCKS5 proxy
	k    *Kubelet
	l    net.Listener
}

// StartServiceRouter starts the proxy; it stops when the cluster's test ends.
func StartServiceRouter(k *Kubelet) (*ServiceRouter, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, fmt.Errorf("listening for the service router: %w", err)
	}
	r := &ServiceRouter{Addr: l.Addr().String(), k: k, l: l}
	k.t.Cleanup(func() { l.Close() })
	go r.serve()
	return r, nil
}

func (r *ServiceRouter) serve() {
	for {
		conn, err := r.l.Accept()
		if err != nil {
			return
		}
		go func() {
			if err := r.handle(conn); err != nil {
				r.k.logf("service router: %v", err)
			}
		}()
	}
}

// handle speaks SOCKS5 (RFC 1928): no authentication, CONNECT to a domain name only.
func (r *ServiceRouter) handle(conn net.Conn) error {
	defer conn.Close()
	conn.SetDeadline(time.Now().Add(10 * time.Second))
	hdr := make([]byte, 2)
	if _, err := io.ReadFull(conn, hdr); err != nil || hdr[0] != 5 {
		return fmt.Errorf("reading the SOCKS greeting: %v", err)
	}
	if _, err := io.ReadFull(conn, make([]byte, hdr[1])); err != nil {
		return err
	}
	if _, err := conn.Write([]byte{5, 0}); err != nil {
		return err
	}
	req := make([]byte, 4)
	if _, err := io.ReadFull(conn, req); err != nil {
		return err
	}
	var host string
	switch req[3] {
	case 3:
		n := make([]byte, 1)
		if _, err := io.ReadFull(conn, n); err != nil {
			return err
		}
		name := make([]byte, n[0])
		if _, err := io.ReadFull(conn, name); err != nil {
			return err
		}
		host = string(name)
	case 1:
		ip := make([]byte, 4)
		if _, err := io.ReadFull(conn, ip); err != nil {
			return err
		}
		host = net.IP(ip).String()
	default:
		conn.Write([]byte{5, 8, 0, 1, 0, 0, 0, 0, 0, 0})
		return fmt.Errorf("SOCKS address type %d not supported", req[3])
	}
	pb := make([]byte, 2)
	if _, err := io.ReadFull(conn, pb); err != nil {
		return err
	}
	port := int(binary.BigEndian.Uint16(pb))
	upstream, err := r.dial(context.Background(), host, port)
	if err != nil {
		conn.Write([]byte{5, 4, 0, 1, 0, 0, 0, 0, 0, 0}) // host unreachable
		return fmt.Errorf("routing %s:%d: %w", host, port, err)
	}
	defer upstream.Close()
	if _, err := conn.Write([]byte{5, 0, 0, 1, 0, 0, 0, 0, 0, 0}); err != nil {
		return err
	}
	conn.SetDeadline(time.Time{})
	done := make(chan struct{}, 2)
	go func() { io.Copy(upstream, conn); done <- struct{}{} }()
	go func() { io.Copy(conn, upstream); done <- struct{}{} }()
	<-done
	return nil
}

// dial connects to a Service's port: the Service read from the API server, a running pod it selects,
// the target port in that pod's network namespace.
func (r *ServiceRouter) dial(ctx context.Context, host string, port int) (net.Conn, error) {
	name, rest, ok := strings.Cut(strings.TrimSuffix(host, ".cluster.local"), ".")
	namespace, svcSuffix, ok2 := strings.Cut(rest, ".")
	if !ok || !ok2 || svcSuffix != "svc" {
		return nil, errors.New("not a Service name")
	}
	var svc corev1.Service
	found, err := r.k.c.GetJSON(ctx, fmt.Sprintf("/api/v1/namespaces/%s/services/%s", namespace, name), &svc)
	if err != nil || !found {
		return nil, fmt.Errorf("no Service %s/%s (%v)", namespace, name, err)
	}
	target := port
	for _, p := range svc.Spec.Ports {
		if int(p.Port) == port && p.TargetPort.IntValue() != 0 {
			target = p.TargetPort.IntValue()
		}
	}
	sel := labels.SelectorFromSet(svc.Spec.Selector)
	r.k.mu.Lock()
	var pod *podRun
	for _, p := range r.k.pods {
		if p.namespace == namespace && p.ns != nil && len(svc.Spec.Selector) > 0 && sel.Matches(labels.Set(p.labels)) {
			pod = p
		}
	}
	r.k.mu.Unlock()
	if pod == nil {
		return nil, fmt.Errorf("no running pod selected by Service %s/%s", namespace, name)
	}
	return pod.ns.Dial(ctx, net.JoinHostPort("127.0.0.1", strconv.Itoa(target)))
}
