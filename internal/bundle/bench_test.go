package bundle

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// BenchmarkGenerate measures generating the go/v4 sample bundle from its kustomize stream (check mode:
// everything but the final write).
func BenchmarkGenerate(b *testing.B) {
	stream, err := os.ReadFile(filepath.Join(sampleDir("memcached-operator"), "observed-v1.42.3", "kustomize-out.yaml"))
	if err != nil {
		b.Fatal(err)
	}
	out := b.TempDir()
	b.SetBytes(int64(len(stream)))
	for b.Loop() {
		_, err := Generate(context.Background(), Options{Package: "memcached-operator", Version: "0.0.1", ProjectDir: out,
			Input: bytes.NewReader(stream), OutputDir: filepath.Join(out, "bundle"), Dockerfile: filepath.Join(out, "bundle.Dockerfile"),
			Mode: ModeCheck, SourceDateEpoch: "0"})
		if err != nil {
			b.Fatal(err)
		}
	}
}

func TestDuplicateFileNames(t *testing.T) {
	cm := "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cfg\n  namespace: %s\ndata: {a: b}\n---\n"
	stream := strings.Replace(smallStream, "---\napiVersion: operators", "---\n"+strings.Replace(cm, "%s", "one", 1)+strings.Replace(cm, "%s", "two", 1)+"apiVersion: operators", 1)
	res := generateSmall(t, t.TempDir(), func(o *Options) { o.Input = strings.NewReader(stream); o.Mode = ModeStdout })
	var names []string
	for _, f := range res.Files {
		if strings.Contains(f.Name, "configmap") {
			names = append(names, f.Name)
			if strings.Contains(string(f.Data), "namespace") {
				t.Errorf("%s keeps its namespace:\n%s", f.Name, f.Data)
			}
		}
	}
	if strings.Join(names, " ") != "manifests/cfg_v1_configmap.yaml manifests/dup0_cfg_v1_configmap.yaml" {
		t.Errorf("config map files = %v", names)
	}
}
