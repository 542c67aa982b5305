package bundle

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/operator-framework/api/pkg/operators/v1alpha1"
)

// smallStream is a deployment with related images, an extra service account with its RBAC,
// and a base CSV without annotations that lists its own relatedImages.
const smallStream = `apiVersion: apps/v1
kind: Deployment
metadata:
  name: op
  namespace: sys
spec:
  selector:
    matchLabels: {app: op}
  template:
    metadata:
      labels: {app: op}
    spec:
      serviceAccountName: op-sa
      containers:
      - name: manager
        image: example.com/op:v1
        env:
        - name: RELATED_IMAGE_MEMCACHED
          value: docker.io/memcached:1.6
        - name: WATCH_NAMESPACE
          value: ""
---
apiVersion: v1
kind: ServiceAccount
metadata:
  name: extra-sa
  namespace: sys
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata:
  name: extra-role
rules:
- apiGroups: [""]
  resources: [secrets]
  verbs: [get]
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRoleBinding
metadata:
  name: extra-binding
roleRef:
  apiGroup: rbac.authorization.k8s.io
  kind: ClusterRole
  name: extra-role
subjects:
- kind: ServiceAccount
  name: extra-sa
  namespace: sys
---
apiVersion: operators.coreos.com/v1alpha1
kind: ClusterServiceVersion
metadata:
  name: op.v0.0.0
spec:
  displayName: Op
  installModes:
  - supported: true
    type: AllNamespaces
  relatedImages:
  - name: helper
    image: example.com/helper:v2
  - name: memcached
    image: docker.io/memcached:1.5
`

func generateSmall(t *testing.T, out string, mut func(*Options)) *Result {
	t.Helper()
	o := Options{Package: "op", Version: "1.2.3", Input: strings.NewReader(smallStream), ProjectDir: out,
		OutputDir: filepath.Join(out, "bundle"), Dockerfile: filepath.Join(out, "bundle.Dockerfile"), SourceDateEpoch: "0"}
	if mut != nil {
		mut(&o)
	}
	res, err := Generate(context.Background(), o)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

func TestBaseWithoutAnnotationsAndRelatedImages(t *testing.T) {
	res := generateSmall(t, t.TempDir(), nil)
	want := []v1alpha1.RelatedImage{{Name: "memcached", Image: "docker.io/memcached:1.6"}, {Name: "helper", Image: "example.com/helper:v2"}}
	if diff := cmp.Diff(want, res.CSV.Spec.RelatedImages); diff != "" {
		t.Errorf("relatedImages (-want +got):\n%s", diff)
	}
	env := res.CSV.Spec.InstallStrategy.StrategySpec.DeploymentSpecs[0].Spec.Template.Spec.Containers[0].Env[1]
	if env.ValueFrom == nil || env.ValueFrom.FieldRef.FieldPath != "metadata.annotations['olm.targetNamespaces']" {
		t.Errorf("WATCH_NAMESPACE not rewritten: %+v", env)
	}
	var names []string
	for _, f := range res.Files {
		names = append(names, f.Name)
	}
	wantFiles := []string{"manifests/op.clusterserviceversion.yaml", "manifests/extra-role_rbac.authorization.k8s.io_v1_clusterrole.yaml",
		"manifests/extra-binding_rbac.authorization.k8s.io_v1_clusterrolebinding.yaml", "manifests/extra-sa_v1_serviceaccount.yaml",
		"metadata/annotations.yaml"}
	if diff := cmp.Diff(wantFiles, names); diff != "" {
		t.Errorf("files (-want +got):\n%s", diff)
	}
}

func TestExtraServiceAccounts(t *testing.T) {
	res := generateSmall(t, t.TempDir(), func(o *Options) { o.ExtraServiceAccounts = []string{"extra-sa"} })
	perms := res.CSV.Spec.InstallStrategy.StrategySpec.ClusterPermissions
	if len(perms) != 1 || perms[0].ServiceAccountName != "extra-sa" || perms[0].Rules[0].Resources[0] != "secrets" {
		t.Errorf("clusterPermissions = %+v, want extra-sa with the secrets rule", perms)
	}
	if len(res.Files) != 2 {
		t.Errorf("RBAC of an extra service account was still written as files: %d files", len(res.Files))
	}
}

func TestUserLabelsKept(t *testing.T) {
	out := t.TempDir()
	generateSmall(t, out, nil)
	ann := filepath.Join(out, "bundle", "metadata", "annotations.yaml")
	appendFile(t, ann, "  com.redhat.openshift.versions: v4.12-v4.15\n")
	appendFile(t, filepath.Join(out, "bundle.Dockerfile"), "LABEL com.example.team=\"ops team\"\n")
	generateSmall(t, out, nil)
	gotAnn, _ := os.ReadFile(ann)
	gotDF, _ := os.ReadFile(filepath.Join(out, "bundle.Dockerfile"))
	for _, want := range []string{"  com.redhat.openshift.versions: v4.12-v4.15\n", "  com.example.team: ops team\n"} {
		if !strings.Contains(string(gotAnn), want) {
			t.Errorf("annotations.yaml lacks %q:\n%s", want, gotAnn)
		}
	}
	for _, want := range []string{"LABEL com.redhat.openshift.versions=v4.12-v4.15\n", "LABEL com.example.team=\"ops team\"\n"} {
		if !strings.Contains(string(gotDF), want) {
			t.Errorf("bundle.Dockerfile lacks %q:\n%s", want, gotDF)
		}
	}
	if res := generateSmall(t, out, func(o *Options) { o.Mode = ModeCheck }); res.Changed {
		t.Errorf("kept labels are not stable:\n%s", res.Diff)
	}
}

func TestKeepMetadata(t *testing.T) {
	out := t.TempDir()
	generateSmall(t, out, nil)
	ann := filepath.Join(out, "bundle", "metadata", "annotations.yaml")
	custom := "annotations:\n  operators.operatorframework.io.bundle.package.v1: op\n  # hand-edited\n"
	if err := os.WriteFile(ann, []byte(custom), 0o644); err != nil {
		t.Fatal(err)
	}
	before, _ := os.ReadFile(filepath.Join(out, "bundle.Dockerfile"))
	generateSmall(t, out, func(o *Options) { o.KeepMetadata = true; o.Channels = "stable" })
	got, _ := os.ReadFile(ann)
	after, _ := os.ReadFile(filepath.Join(out, "bundle.Dockerfile"))
	if string(got) != custom || string(after) != string(before) {
		t.Errorf("--overwrite=false rewrote metadata:\n%s\n%s", got, after)
	}
}

func TestDockerfileElsewhere(t *testing.T) {
	out := t.TempDir()
	generateSmall(t, out, func(o *Options) {
		o.Dockerfile = filepath.Join(out, "build", "bundle.Dockerfile")
		o.DefaultChannel, o.Channels = "stable", "stable,fast"
	})
	got, err := os.ReadFile(filepath.Join(out, "build", "bundle.Dockerfile"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"COPY ../bundle/manifests /manifests/\n", "COPY ../bundle/metadata /metadata/\n",
		"channels.v1=stable,fast\nLABEL operators.operatorframework.io.bundle.channel.default.v1=stable\n"} {
		if !strings.Contains(string(got), want) {
			t.Errorf("Dockerfile lacks %q:\n%s", want, got)
		}
	}
	if strings.Contains(string(got), "scorecard") {
		t.Errorf("Dockerfile has scorecard labels without a scorecard config:\n%s", got)
	}
}
