package emit

import (
	"context"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/google/go-cmp/cmp"
	rbacv1 "k8s.io/api/rbac/v1"
)

var update = flag.Bool("update", false, "rewrite the golden files of testdata/render")

// specs are the deploy configurations rendered by TestRenderGolden.
func specs() map[string]Spec {
	return map[string]Spec{
		// Both generations, defaults as internal/project fills them, a scratch catalog polled by tag.
		"both-scratch": {
			Package: "memcached-operator",
			Catalog: Catalog{Image: "quay.io/example/memcached-operator-catalog:latest", Scratch: true},
			OLMv0: &OLMv0{
				Namespace: "memcached-operator-system", CreateNamespace: true, OperatorGroup: "memcached-operator",
				CatalogSource: CatalogSource{Name: "memcached-operator-catalog", Namespace: "olm", PollInterval: "10m",
					GRPCPodConfig: GRPCPodConfig{SecurityContextConfig: "restricted", ExtractContent: true, CacheDir: "/tmp/cache"}},
				Subscription: Subscription{Name: "memcached-operator", Channel: "alpha", Approval: "Automatic"},
			},
			OLMv1: &OLMv1{
				Catalog:   ClusterCatalog{Name: "memcached-operator-catalog", PollIntervalMinutes: 10},
				Extension: ClusterExtension{Name: "memcached-operator", Namespace: "memcached-operator-system", UpgradeConstraintPolicy: "CatalogProvided", SelectCatalog: true},
			},
		},
		// OLM v0 only, an opm-based catalog by digest, single-namespace install, every optional field.
		"v0-digest-opm": {
			Package: "etcd",
			Catalog: Catalog{Image: "quay.io/example/etcd-catalog@sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"},
			OLMv0: &OLMv0{
				Namespace: "etcd", CreateNamespace: true, OperatorGroup: "etcd", TargetNamespaces: []string{"etcd"},
				CatalogSource: CatalogSource{Name: "etcd-catalog", Namespace: "openshift-marketplace", DisplayName: "Etcd: the catalog", Publisher: "Example, Inc.",
					GRPCPodConfig: GRPCPodConfig{SecurityContextConfig: "legacy", NodeSelector: map[string]string{"zone": "b", "arch": "amd64"}, PriorityClassName: "system-cluster-critical", MemoryTarget: "512Mi"}},
				Subscription: Subscription{Name: "etcd", Channel: "stable", Approval: "Manual", StartingCSV: "etcd.v0.9.4"},
			},
		},
		// OLM v1 only, with a version range, channels and an installer service account with its own rules.
		"v1-serviceaccount": {
			Package: "argocd-operator",
			Catalog: Catalog{Image: "quay.io/operatorhubio/catalog:latest", Scratch: true},
			OLMv1: &OLMv1{
				Catalog:         ClusterCatalog{Name: "operatorhubio", Priority: -100},
				Extension:       ClusterExtension{Name: "argocd", Namespace: "argocd", Channels: []string{"alpha", "stable"}, Version: ">=0.6.0 <0.9.0", UpgradeConstraintPolicy: "SelfCertified"},
				CreateNamespace: true,
				ServiceAccount: &ServiceAccount{Name: "argocd-installer", ClusterRole: "argocd-installer", Rules: []rbacv1.PolicyRule{
					{APIGroups: []string{"apiextensions.k8s.io"}, Resources: []string{"customresourcedefinitions"}, Verbs: []string{"create", "get", "list", "watch", "update", "patch", "delete"}},
					{APIGroups: []string{"olm.operatorframework.io"}, Resources: []string{"clusterextensions/finalizers"}, ResourceNames: []string{"argocd"}, Verbs: []string{"update"}},
				}},
			},
		},
	}
}

func TestRenderGolden(t *testing.T) {
	for name, spec := range specs() {
		t.Run(name, func(t *testing.T) {
			files, err := Render(context.Background(), spec)
			if err != nil {
				t.Fatal(err)
			}
			dir := filepath.Join("testdata", "render", name)
			if *update {
				os.RemoveAll(dir)
				if err := Write(dir, files); err != nil {
					t.Fatal(err)
				}
			}
			want := readTree(t, dir)
			got := map[string]string{}
			for _, f := range files {
				got[f.Path] = string(f.Data)
				if f.Object == nil && filepath.Base(f.Path) != KustomizationFile {
					t.Errorf("%s: no object", f.Path)
				}
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("rendered files differ from %s (-want +got; go test -update rewrites them):\n%s", dir, diff)
			}
		})
	}
}

func readTree(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := os.ReadFile(p)
		rel, _ := filepath.Rel(dir, p)
		out[filepath.ToSlash(rel)] = string(data)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func TestRenderKinds(t *testing.T) {
	tests := []struct {
		spec string
		want []string // kind of each file, in order
	}{
		{"both-scratch", []string{"CatalogSource", "Namespace", "OperatorGroup", "Subscription", "", "ClusterCatalog", "ClusterExtension", ""}},
		{"v0-digest-opm", []string{"CatalogSource", "Namespace", "OperatorGroup", "Subscription", ""}},
		{"v1-serviceaccount", []string{"ClusterCatalog", "ClusterExtension", "ClusterRole", "ClusterRoleBinding", "Namespace", "ServiceAccount", ""}},
	}
	for _, tt := range tests {
		t.Run(tt.spec, func(t *testing.T) {
			files, err := Render(context.Background(), specs()[tt.spec])
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, f := range files {
				kind := ""
				if f.Object != nil {
					kind = f.Object.GetKind()
				}
				got = append(got, kind)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("kinds (-want +got):\n%s", diff)
			}
		})
	}
}

func TestRenderDigestOmitsPolling(t *testing.T) {
	spec := specs()["both-scratch"]
	spec.Catalog.Image = "quay.io/example/c@sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"
	// A caller that forgets to drop polling for a digest is stopped by the ClusterCatalog's CEL rule.
	_, err := Render(context.Background(), spec)
	if err == nil || !strings.Contains(err.Error(), "cannot specify pollIntervalMinutes while using digest-based image") {
		t.Fatalf("got %v, want the CEL rule on pollIntervalMinutes", err)
	}
	spec.OLMv1.Catalog.PollIntervalMinutes = 0
	if _, err := Render(context.Background(), spec); err != nil {
		t.Fatal(err)
	}
}

func TestRenderRejectsInvalidObjects(t *testing.T) {
	tests := []struct {
		name   string
		mutate func(*Spec)
		want   []string
	}{
		{"bad namespace", func(s *Spec) { s.OLMv0.Namespace = "Bad_NS" }, []string{"olmv0/operatorgroup.yaml", "metadata.namespace", "Bad_NS"}},
		{"no catalog source namespace", func(s *Spec) { s.OLMv0.CatalogSource.Namespace = "" }, []string{"olmv0/catalogsource.yaml", "metadata.namespace: Required value"}},
		{"extension namespace", func(s *Spec) { s.OLMv1.Extension.Namespace = "Not.A.Label" }, []string{"olmv1/clusterextension.yaml", "spec.namespace", "namespace must be a valid DNS1123 label"}},
		{"version range", func(s *Spec) { s.OLMv1.Extension.Version = "latest please" }, []string{"spec.source.catalog.version", "invalid version expression"}},
		{"upgrade policy", func(s *Spec) { s.OLMv1.Extension.UpgradeConstraintPolicy = "Never" }, []string{"spec.source.catalog.upgradeConstraintPolicy", "Unsupported value"}},
		{"security context", func(s *Spec) { s.OLMv0.CatalogSource.GRPCPodConfig.SecurityContextConfig = "privileged" }, []string{"spec.grpcPodConfig.securityContextConfig", "Unsupported value"}},
		{"catalog ref", func(s *Spec) { s.Catalog.Image = "not a reference" }, []string{"olmv1/clustercatalog.yaml", "spec.source.image.ref"}},
		{"rbac rule without verbs", func(s *Spec) {
			s.OLMv1.ServiceAccount = &ServiceAccount{Name: "installer", ClusterRole: "installer", Rules: []rbacv1.PolicyRule{{Resources: []string{"pods"}}}}
		}, []string{"olmv1/clusterrole.yaml", "rules[0].verbs"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			spec := specs()["both-scratch"]
			tt.mutate(&spec)
			files, err := Render(context.Background(), spec)
			if err == nil {
				t.Fatalf("no error; rendered %d files", len(files))
			}
			for _, w := range tt.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not mention %q", err, w)
				}
			}
		})
	}
}

func TestRenderCustomTemplates(t *testing.T) {
	ok := "apiVersion: operators.coreos.com/v1\nkind: OperatorGroup\nmetadata:\n  name: {{ quote .OLMv0.OperatorGroup }}\n  namespace: {{ quote .OLMv0.Namespace }}\n"
	tests := []struct {
		name    string
		files   map[string]string
		want    []string // rendered paths
		wantErr string
	}{
		{"one template", map[string]string{"olmv0/og.yaml.tmpl": ok}, []string{"olmv0/og.yaml", "olmv0/kustomization.yaml"}, ""},
		{"two objects", map[string]string{"olmv0/og.yaml.tmpl": ok + "---\n" + ok}, nil, "rendered 2 objects"},
		{"unknown kind", map[string]string{"olmv0/x.yaml.tmpl": "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: x, namespace: y}\n"}, nil, "neither an OLM kind"},
		{"unknown field", map[string]string{"olmv0/og.yaml.tmpl": ok + "spec:\n  targetNamespace: [a]\n"}, nil, "spec.targetNamespace: Forbidden: unknown field"},
		{"missing key", map[string]string{"olmv0/og.yaml.tmpl": "{{ .Nope }}"}, nil, "executing template olmv0/og.yaml.tmpl"},
		{"other folder falls back to the built-in templates", map[string]string{"olmv1/x.yaml.tmpl": ok}, []string{"olmv0/catalogsource.yaml", "olmv0/namespace.yaml", "olmv0/operatorgroup.yaml", "olmv0/subscription.yaml", "olmv0/kustomization.yaml"}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fsys := fstest.MapFS{}
			for name, data := range tt.files {
				fsys[name] = &fstest.MapFile{Data: []byte(data)}
			}
			spec := specs()["both-scratch"]
			spec.OLMv1 = nil
			files, err := Render(context.Background(), spec, WithTemplates(fsys))
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("got error %v, want one containing %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, f := range files {
				got = append(got, f.Path)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("paths (-want +got):\n%s", diff)
			}
		})
	}
}

func TestQuote(t *testing.T) {
	for in, want := range map[string]string{
		"plain": "plain", "10m": "10m", "": `""`, "true": `"true"`, "y": `"y"`, "1.0": `"1.0"`,
		"a: b": `'a: b'`, "x # y": `"x # y"`, "two\nlines": `"two\nlines"`, ">=1.0.0 <2.0.0": `'>=1.0.0 <2.0.0'`,
	} {
		got, err := quote(in)
		if err != nil {
			t.Fatal(err)
		}
		if strings.HasPrefix(want, "'") {
			want = `"` + strings.Trim(want, "'") + `"`
		}
		if got != want {
			t.Errorf("quote(%q) = %s, want %s", in, got, want)
		}
	}
}

func TestParseTarget(t *testing.T) {
	for in, want := range map[string]Target{"": TargetBoth, "v0": TargetV0, "v1": TargetV1, "both": TargetBoth} {
		got, err := ParseTarget(in)
		if err != nil || got != want {
			t.Errorf("ParseTarget(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
	if _, err := ParseTarget("v2"); err == nil || !strings.Contains(err.Error(), "use v0, v1 or both") {
		t.Errorf("ParseTarget(v2) error = %v", err)
	}
}
