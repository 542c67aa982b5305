package project

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/opack/opack/internal/emit"
	"github.com/opack/opack/internal/manifest"
	"github.com/opack/opack/internal/project/config"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
)

// initSample writes opack.yaml into a copy of the sample, plus extra YAML appended to it.
func initSample(t *testing.T, extra string) (dir string, p *config.Project) {
	t.Helper()
	dir = sample(t)
	if _, err := Init(context.Background(), dir, e2eInit); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, config.DefaultFile)
	if extra != "" {
		data, _ := os.ReadFile(path)
		if err := writeFile(path, string(data)+extra); err != nil {
			t.Fatal(err)
		}
	}
	p, err := config.Load(path)
	if err != nil {
		t.Fatal(err)
	}
	return dir, p
}

func TestEmitSample(t *testing.T) {
	dir, _ := initSample(t, "")
	res, err := EmitFile(context.Background(), filepath.Join(dir, config.DefaultFile))
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		"olmv0/catalogsource.yaml", "olmv0/namespace.yaml", "olmv0/operatorgroup.yaml", "olmv0/subscription.yaml", "olmv0/kustomization.yaml",
		"olmv1/clustercatalog.yaml", "olmv1/clusterextension.yaml", "olmv1/namespace.yaml", "olmv1/kustomization.yaml",
	}
	if diff := cmp.Diff(want, res.Files); diff != "" {
		t.Errorf("files (-want +got):\n%s", diff)
	}
	// The sample has a defaulting webhook: with --olm both that is a warning, not an error.
	if len(res.Warnings) != 1 || !strings.Contains(res.Warnings[0], "mmemcached-v1alpha1.kb.io") || !strings.Contains(res.Warnings[0], emit.RuleWebhooks) {
		t.Errorf("warnings = %q", res.Warnings)
	}
	kinds := map[string]string{}
	for _, f := range want {
		docs, err := manifest.ReadFile(filepath.Join(dir, "deploy", filepath.FromSlash(f)))
		if err != nil || len(docs) != 1 {
			t.Fatalf("%s: %d docs, %v", f, len(docs), err)
		}
		kinds[docs[0].Object.GetKind()] = f
	}
	for _, k := range []string{"CatalogSource", "OperatorGroup", "Subscription", "ClusterCatalog", "ClusterExtension"} {
		if kinds[k] == "" {
			t.Errorf("no %s emitted", k)
		}
	}
	cs, _ := manifest.ReadFile(filepath.Join(dir, "deploy", "olmv0", "catalogsource.yaml"))
	if got, _, _ := unstructured.NestedString(cs[0].Object.Object, "spec", "grpcPodConfig", "extractContent", "catalogDir"); got != "/configs" {
		t.Errorf("scratch catalog without extractContent: %v", cs[0].Object.Object["spec"])
	}
	// Emitting again leaves every byte as it was.
	before := tree(t, filepath.Join(dir, "deploy"))
	if _, err := EmitFile(context.Background(), filepath.Join(dir, config.DefaultFile)); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(before, tree(t, filepath.Join(dir, "deploy"))); diff != "" {
		t.Errorf("second emit changed files:\n%s", diff)
	}
}

func TestEmitOptions(t *testing.T) {
	const digest = "quay.io/example/memcached-operator-catalog@sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"
	tests := []struct {
		name    string
		extra   string
		opts    []EmitOption
		want    map[string][]string // file → substrings it must contain
		absent  map[string][]string // file → substrings it must not contain
		wantErr string
	}{
		{name: "missing templates folder", extra: "  templates: deploy-templates\n", wantErr: "deploy.templates: "},
		{name: "bad catalog image", opts: []EmitOption{EmitCatalogImage("quay.io/Bad")}, wantErr: `catalog image "quay.io/Bad"`},
		{name: "v1 only refuses the webhook bundle", opts: []EmitOption{EmitTarget(emit.TargetV1)}, wantErr: emit.ErrNotInstallable.Error() + ": the CSV defines webhooks (mmemcached-v1alpha1.kb.io)"},
		{name: "v1 with the webhook feature gate", extra: "    webhooks: true\n", opts: []EmitOption{EmitTarget(emit.TargetV1)},
			want: map[string][]string{"olmv1/clusterextension.yaml": {"packageName: memcached-operator"}}},
		{name: "v0 only", opts: []EmitOption{EmitTarget(emit.TargetV0)}, want: map[string][]string{"olmv0/subscription.yaml": {"installPlanApproval: Automatic", "sourceNamespace: olm"}}},
		{name: "pushed digest", opts: []EmitOption{EmitTarget(emit.TargetV0), EmitCatalogImage(digest)},
			want:   map[string][]string{"olmv0/catalogsource.yaml": {"image: " + digest}},
			absent: map[string][]string{"olmv0/catalogsource.yaml": {"registryPoll"}}},
		{name: "a tagged catalog image is kept", opts: []EmitOption{EmitTarget(emit.TargetV0), EmitVersion("0.0.2")},
			extra: "", want: map[string][]string{"olmv0/catalogsource.yaml": {"image: quay.io/example/memcached-operator-catalog:latest"}}},
		{name: "service account", extra: "    webhooks: true\n    serviceAccount:\n      name: memcached-installer\n      clusterRole: cluster-admin\n", opts: []EmitOption{EmitTarget(emit.TargetV1)},
			want: map[string][]string{
				"olmv1/serviceaccount.yaml":     {"name: memcached-installer", "namespace: memcached-operator-system"},
				"olmv1/clusterrolebinding.yaml": {"name: cluster-admin"},
				"olmv1/clusterextension.yaml":   {"serviceAccount:\n    name: memcached-installer"},
			}},
		{name: "service account RBAC derived from the CSV", extra: "    webhooks: true\n    serviceAccount:\n      name: memcached-installer\n", opts: []EmitOption{EmitTarget(emit.TargetV1)},
			want: map[string][]string{
				"olmv1/clusterrole.yaml":        {"name: memcached-installer-installer", "clusterextensions/finalizers", "- memcached-operator\n", "- memcacheds.cache.example.com", "- memcacheds/finalizers", "- tokenreviews"},
				"olmv1/clusterrolebinding.yaml": {"name: memcached-installer-installer"},
				"olmv1/role.yaml":               {"namespace: memcached-operator-system", "- deployments", "- leases"},
				"olmv1/rolebinding.yaml":        {"kind: Role\n  name: memcached-installer-installer"},
			},
			absent: map[string][]string{"olmv1/clusterrolebinding.yaml": {"cluster-admin"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir, p := initSample(t, tt.extra)
			res, err := Emit(context.Background(), p, tt.opts...)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("err = %v, want %q", err, tt.wantErr)
				}
				if _, err := os.Stat(filepath.Join(dir, "deploy")); err == nil {
					t.Errorf("deploy/ written despite the error")
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			files := tree(t, res.Dir)
			for f, subs := range tt.want {
				for _, s := range subs {
					if !strings.Contains(files[f], s) {
						t.Errorf("%s does not contain %q:\n%s", f, s, files[f])
					}
				}
			}
			for f, subs := range tt.absent {
				for _, s := range subs {
					if strings.Contains(files[f], s) {
						t.Errorf("%s contains %q", f, s)
					}
				}
			}
		})
	}
}

func TestEmitWithoutBundle(t *testing.T) {
	dir, p := initSample(t, "")
	if err := os.RemoveAll(filepath.Join(dir, "bundle")); err != nil {
		t.Fatal(err)
	}
	res, err := Emit(context.Background(), p, EmitTarget(emit.TargetV1))
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Warnings) != 1 || !strings.Contains(res.Warnings[0], "installability check was skipped") {
		t.Errorf("warnings = %q", res.Warnings)
	}
}

func TestEmitInvalidConfigWritesNothing(t *testing.T) {
	dir, p := initSample(t, "")
	if _, err := Emit(context.Background(), p, EmitTarget(emit.TargetV0)); err != nil {
		t.Fatal(err)
	}
	before := tree(t, filepath.Join(dir, "deploy"))
	// A value the project validation lets through but the Subscription schema refuses.
	p.Deploy.OLMv0.Subscription = "Not_Valid"
	_, err := Emit(context.Background(), p, EmitTarget(emit.TargetV0))
	if err == nil || !strings.Contains(err.Error(), "olmv0/subscription.yaml") || !strings.Contains(err.Error(), "metadata.name") {
		t.Fatalf("err = %v", err)
	}
	if diff := cmp.Diff(before, tree(t, filepath.Join(dir, "deploy"))); diff != "" {
		t.Errorf("a failed emit changed deploy/:\n%s", diff)
	}
}

func tree(t *testing.T, dir string) map[string]string {
	t.Helper()
	files, err := manifest.Files(dir)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	for _, f := range files {
		data, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(f)))
		if err != nil {
			t.Fatal(err)
		}
		out[f] = string(data)
	}
	return out
}
