package validate

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/opack/opack/internal/finding"
)

func TestBestPractices(t *testing.T) {
	const (
		csvFile = "memcached-operator.clusterserviceversion.yaml"
		crdFile = "cache.example.com_memcacheds.yaml"
		minKube = "spec.minKubeVersion is not set: set it to the oldest Kubernetes release the operator is tested on (e.g. 1.28.0), so that OLM does not offer it to older clusters"
	)
	tests := []struct {
		name string
		file string
		old  string
		new  string
		want []string
	}{
		{"scaffold", "", "", "", []string{csvFile + ": " + minKube}},
		{"minKubeVersion set", csvFile, "  maturity: alpha\n", "  maturity: alpha\n  minKubeVersion: 1.28.0\n", nil},
		{"no status subresource", crdFile, "    subresources:\n      status: {}\n", "", []string{
			crdFile + ": version v1alpha1 has a status in its schema but no status subresource: add subresources: {status: {}} so that users cannot overwrite status and the controller updates it through /status",
			csvFile + ": " + minKube,
		}},
		{"no finalizers rule", csvFile, "          - memcacheds/finalizers\n", "          - memcacheds/other\n", []string{
			csvFile + ": the CSV's permissions do not allow update of memcacheds/finalizers in group cache.example.com: add the rule, or setting ownerReferences with blockOwnerDeletion fails where OwnerReferencesPermissionEnforcement is on (OpenShift)",
			csvFile + ": " + minKube,
		}},
		{"no status rule", csvFile, "          - memcacheds/status\n", "          - memcacheds/other\n", []string{
			csvFile + ": the CSV's permissions do not allow update or patch of memcacheds/status in group cache.example.com: add the rule so that the operator can report status",
			csvFile + ": " + minKube,
		}},
		{"no requests", csvFile, "                  requests:\n                    cpu: 10m\n                    memory: 64Mi\n", "", []string{
			csvFile + ": deployment memcached-operator-controller-manager, container manager requests no cpu or memory: set resources.requests so that the scheduler places the pod where it fits",
			csvFile + ": " + minKube,
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := copyTree(t, "../../testdata/validate/samples/memcached-operator/bundle")
			if tt.file != "" {
				editFile(t, filepath.Join(dir, "manifests", tt.file), tt.old, tt.new)
			}
			r, err := Bundles(context.Background(), []string{dir}, WithSelector("name=best-practices"))
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, f := range r.Findings {
				if strings.HasPrefix(f.Rule, "best-practices/") {
					if f.Severity != finding.SeverityWarning {
						t.Errorf("%s: severity %s, want warning", f.Rule, f.Severity)
					}
					got = append(got, filepath.Base(f.File)+": "+f.Message)
				}
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

func TestBestPracticesSchemaOnlyPreservesUnknown(t *testing.T) {
	r, err := Bundles(context.Background(), []string{"../../testdata/validate/samples/helm-memcached-operator/bundle"}, WithSelector("name=best-practices"))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, f := range r.Findings {
		if f.Rule == RuleBPSchema {
			got = append(got, f.Object+": "+f.Message)
		}
	}
	want := []string{
		"CustomResourceDefinition memcacheds.cache.example.com: version v1alpha1: spec has no schema for its fields (only x-kubernetes-preserve-unknown-fields): describe its properties so that the API server validates them",
		"CustomResourceDefinition memcacheds.cache.example.com: version v1alpha1: status has no schema for its fields (only x-kubernetes-preserve-unknown-fields): describe its properties so that the API server validates them",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

func TestBestPracticesV1beta1WithoutSchema(t *testing.T) {
	r, err := Bundles(context.Background(), []string{etcdPackage}, WithSelector("name=best-practices"))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, f := range r.Findings {
		if f.Rule == RuleBPSchema && filepath.Base(filepath.Dir(f.File)) == "0.9.4" {
			got = append(got, filepath.Base(f.File)+": "+f.Message)
		}
	}
	want := []string{
		"etcdbackups.etcd.database.coreos.com.crd.yaml: version v1beta2 has no schema: describe spec and status in openAPIV3Schema so that the API server validates, prunes and defaults them",
		"etcdclusters.etcd.database.coreos.com.crd.yaml: version v1beta2 has no schema: describe spec and status in openAPIV3Schema so that the API server validates, prunes and defaults them",
		"etcdrestores.etcd.database.coreos.com.crd.yaml: version v1beta2 has no schema: describe spec and status in openAPIV3Schema so that the API server validates, prunes and defaults them",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}
