package sign

import (
	"strings"
	"testing"
)

// FuzzParsePayload: a signature payload from a registry never panics the parser, and what it
// accepts names a digest and a reference (it is read as containers/image reads it).
func FuzzParsePayload(f *testing.F) {
	f.Add([]byte(`{"critical":{"identity":{"docker-reference":"quay.io/x/y:v1"},"image":{"docker-manifest-digest":"sha256:ab"},"type":"cosign container image signature"},"optional":null}`))
	f.Add([]byte(`{"critical":{"identity":{"docker-reference":"r"},"image":{"docker-manifest-digest":"d"},"type":"cosign container image signature"},"optional":{"creator":"skopeo","timestamp":1}}`))
	f.Add([]byte(`{"critical":{},"critical":{}}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		c, err := parsePayload(data)
		if err == nil && c.Type != "cosign container image signature" {
			t.Errorf("accepted a payload of type %q", c.Type)
		}
	})
}

// FuzzParsePolicy: a policy.json never panics the parser; requirements it accepts are of a known
// type, and sigstoreSigned ones have a key.
func FuzzParsePolicy(f *testing.F) {
	f.Add([]byte(`{"default":[{"type":"insecureAcceptAnything"}],"transports":{"docker":{"quay.io/x":[{"type":"reject"}]}}}`))
	f.Add([]byte(`{"default":[{"type":"sigstoreSigned","keyData":"eA==","signedIdentity":{"type":"remapIdentity","prefix":"a","signedPrefix":"b"}}]}`))
	f.Add([]byte(`{"default":[{"type":"signedBy","keyType":"GPGKeys","keyPath":"/k"}]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		if strings.Contains(string(data), "keyPath") {
			return // reads files of the machine
		}
		p, err := ParsePolicy(data, "policy.json")
		if err != nil {
			return
		}
		for _, reqs := range append([][]Requirement{p.Default}, scopesOf(p)...) {
			for _, r := range reqs {
				if r.Type == ReqSigstoreSigned && len(r.Keys) == 0 {
					t.Errorf("a sigstoreSigned requirement without a key")
				}
			}
		}
	})
}

func scopesOf(p *Policy) [][]Requirement {
	var out [][]Requirement
	for _, r := range p.Scopes {
		out = append(out, r)
	}
	return out
}
