package image

import (
	"fmt"
	"net"
	"strings"

	"github.com/google/go-containerregistry/pkg/name"
	v1 "github.com/google/go-containerregistry/pkg/v1"
)

// LayoutPrefix marks a reference to an OCI image layout on disk: "oci:DIR", "oci:DIR:TAG" or
// "oci:DIR@sha256:...".
const LayoutPrefix = "oci:"

// layoutRef names one manifest in an OCI image layout.
type layoutRef struct {
	dir    string
	tag    string   // org.opencontainers.image.ref.name; empty when not given
	digest *v1.Hash // nil when not given
}

func (r layoutRef) String() string {
	s := LayoutPrefix + r.dir
	if r.tag != "" {
		s += ":" + r.tag
	}
	if r.digest != nil {
		s += "@" + r.digest.String()
	}
	return s
}

// parseLayoutRef parses "oci:DIR[:TAG][@DIGEST]"; ok is false when s does not start with "oci:".
// A ":" counts as the tag separator only when no "/" follows it.
func parseLayoutRef(s string) (ref layoutRef, ok bool, err error) {
	rest, ok := strings.CutPrefix(s, LayoutPrefix)
	if !ok {
		return layoutRef{}, false, nil
	}
	if i := strings.LastIndex(rest, "@"); i >= 0 {
		h, err := v1.NewHash(rest[i+1:])
		if err != nil {
			return layoutRef{}, true, fmt.Errorf("parsing %q: bad digest: %w", s, err)
		}
		ref.digest, rest = &h, rest[:i]
	}
	if i := strings.LastIndex(rest, ":"); i >= 0 && !strings.Contains(rest[i+1:], "/") {
		ref.tag, rest = rest[i+1:], rest[:i]
		if _, err := name.NewTag("localhost/x:"+ref.tag, name.StrictValidation); err != nil {
			return layoutRef{}, true, fmt.Errorf("parsing %q: bad tag %q: %w", s, ref.tag, err)
		}
	}
	if rest == "" {
		return layoutRef{}, true, fmt.Errorf("parsing %q: missing directory after %q", s, LayoutPrefix)
	}
	ref.dir = rest
	return ref, true, nil
}

// parseRemoteRef parses a registry reference. Loopback registries, and every registry when insecure
// is set, may be spoken to over plain HTTP; the guard transport refuses plain HTTP elsewhere.
func parseRemoteRef(s string, insecure bool) (name.Reference, error) {
	ref, err := name.ParseReference(s)
	if err != nil {
		return nil, fmt.Errorf("parsing reference %q: %w", s, err)
	}
	if insecure || isLoopback(ref.Context().RegistryStr()) {
		ref, err = name.ParseReference(s, name.Insecure)
		if err != nil {
			return nil, fmt.Errorf("parsing reference %q: %w", s, err)
		}
	}
	return ref, nil
}

// isLoopback reports whether a registry host ("host", "host:port" or "[::1]:port") is localhost,
// in 127.0.0.0/8 or ::1.
func isLoopback(hostport string) bool {
	host := hostport
	if h, _, err := net.SplitHostPort(hostport); err == nil {
		host = h
	}
	host = strings.Trim(host, "[]")
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// IsLocalRef reports whether ref names an image on disk (an OCI layout or a tarball), whose
// reference means nothing to a cluster, rather than one in a registry.
func IsLocalRef(ref string) bool {
	return strings.HasPrefix(ref, LayoutPrefix) || strings.HasPrefix(ref, ArchivePrefix)
}
