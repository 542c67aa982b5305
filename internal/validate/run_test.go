package validate

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/opack/opack/internal/finding"
	"github.com/opack/opack/internal/image"
)

const goSample = "../../testdata/validate/samples/memcached-operator/bundle"

func TestBundlesArguments(t *testing.T) {
	outside := filepath.Join(t.TempDir(), "secret.yaml")
	if err := os.WriteFile(outside, []byte("kind: Secret\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	symlinked := copyTree(t, goSample)
	if err := os.Symlink(outside, filepath.Join(symlinked, "manifests", "leak.yaml")); err != nil {
		t.Fatal(err)
	}
	empty := t.TempDir()
	notBundle := t.TempDir()
	if err := os.WriteFile(filepath.Join(notBundle, "service.yaml"), []byte("kind: Service\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	emptyFile := filepath.Join(t.TempDir(), "empty.yaml")
	if err := os.WriteFile(emptyFile, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(goSample, "metadata", "annotations.yaml")
	report, err := Bundles(context.Background(), []string{symlinked, empty, notBundle, emptyFile, file, goSample})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, f := range report.Findings {
		msg := strings.NewReplacer(symlinked, "SYMLINKED", emptyFile, "EMPTYFILE", empty, "EMPTY", notBundle, "NOTBUNDLE", outside, "OUTSIDE").Replace(f.Message)
		if i := strings.Index(msg, "is a symlink to OUTSIDE, outside "); i >= 0 {
			msg = msg[:i+len("is a symlink to OUTSIDE, outside ")] + "…"
		}
		got = append(got, string(f.Severity)+" "+f.Rule+": "+msg)
	}
	want := []string{
		"error opack/tree: SYMLINKED/manifests/leak.yaml is a symlink to OUTSIDE, outside …",
		"error opack/not-a-bundle: EMPTY is empty: not a bundle; it holds no files (was the bundle generated?)",
		"error opack/not-a-bundle: NOTBUNDLE is not a bundle: no manifests/ folder, no metadata/annotations.yaml and no package manifest (<package>.package.yaml)",
		"error opack/not-a-bundle: EMPTYFILE is empty: not a bundle; give the folder holding manifests/ and metadata/, or a package-manifest folder",
		"error opack/not-a-bundle: " + file + " is a file, not a bundle: give the folder holding manifests/ and metadata/, or a package-manifest folder",
		"warning operator-sdk/csv: Warning: Value : (memcached-operator.v0.0.1) csv.Spec.minKubeVersion is not informed. It is recommended you provide this information. Otherwise, it would mean that your operator project can be distributed and installed in any cluster version available, which is not necessarily the case for all projects.",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

func TestBundlesUsageErrors(t *testing.T) {
	tests := []struct {
		name string
		args []string
		opts []Option
		want string
	}{
		{"missing path", []string{"no/such/bundle"}, nil, "no/such/bundle: no such file or folder, and not an image reference"},
		{"image without puller", []string{"quay.io/example/bundle:v1"}, nil, "quay.io/example/bundle:v1: no such folder; pulling images is not available here"},
		{"selector matching nothing", []string{goSample}, []Option{WithSelector("name=nothing")}, `selector "name=nothing" does not match any validator labels`},
		{"bad selector", []string{goSample}, []Option{WithSelector("name in (")}, `parsing --select-optional "name in ("`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Bundles(context.Background(), tt.args, tt.opts...)
			if err == nil || !strings.HasPrefix(err.Error(), tt.want) {
				t.Errorf("error = %v, want prefix %q", err, tt.want)
			}
		})
	}
}

// copyPuller "pulls" an image by copying a folder, so that the relabelling of unpacked files is tested.
type copyPuller string

func (src copyPuller) Inspect(context.Context, string) (*image.Report, error) {
	return nil, errors.New("not used")
}

func (src copyPuller) Attachments(context.Context, string, string) (*image.Attachments, error) {
	return nil, errors.New("not used")
}

func (src copyPuller) Unpack(_ context.Context, ref, dst string) (*image.Unpacked, error) {
	if ref == "quay.io/example/broken:v1" {
		return nil, errors.New("manifest unknown")
	}
	return &image.Unpacked{Ref: ref}, os.CopyFS(dst, os.DirFS(string(src)))
}

func TestBundlesImages(t *testing.T) {
	bad := copyTree(t, "../../testdata/validate/cases/sa-conflict/bundle")
	report, err := Bundles(context.Background(), []string{"quay.io/example/bundle:v1", "quay.io/example/broken:v1"}, WithPuller(copyPuller(bad)))
	if err == nil || err.Error() != "pulling quay.io/example/broken:v1: manifest unknown" {
		t.Errorf("error = %v, want the failed pull", err)
	}
	var got []string
	for _, f := range report.Findings {
		got = append(got, f.File)
	}
	want := []string{
		"quay.io/example/bundle:v1/manifests/memcached-operator.clusterserviceversion.yaml",
		"quay.io/example/bundle:v1/manifests/memcached-operator.clusterserviceversion.yaml",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

func TestBundlesOrderAndParallelism(t *testing.T) {
	cases, err := filepath.Glob("../../testdata/validate/cases/*/bundle")
	if err != nil {
		t.Fatal(err)
	}
	serial, err := Bundles(context.Background(), cases, WithParallelism(1))
	if err != nil {
		t.Fatal(err)
	}
	parallel, err := Bundles(context.Background(), cases, WithParallelism(8))
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(serial, parallel); diff != "" {
		t.Errorf("parallel run differs (-serial +parallel):\n%s", diff)
	}
}

func TestMultiDocumentFile(t *testing.T) {
	dir := copyTree(t, goSample)
	svc := filepath.Join(dir, "manifests", "memcached-operator-webhook-service_v1_service.yaml")
	raw, err := os.ReadFile(svc)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(svc, append(raw, []byte("---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ignored\n---\n# only a comment\n")...), 0o644); err != nil {
		t.Fatal(err)
	}
	report, err := Bundles(context.Background(), []string{dir})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, f := range report.Findings {
		if f.Rule == RuleMultiDoc {
			got = append(got, filepath.Base(f.File)+" "+f.Object+": "+f.Message)
		}
	}
	want := []string{"memcached-operator-webhook-service_v1_service.yaml Service memcached-operator-webhook-service: file holds 2 YAML documents; OLM and operator-sdk read only the first: put each object in its own file"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

func TestValidatorPanicIsAFinding(t *testing.T) {
	dir := copyTree(t, goSample)
	editFile(t, filepath.Join(dir, "manifests", "memcached-operator.clusterserviceversion.yaml"),
		"  icon:\n  - base64data: \"\"\n    mediatype: \"\"\n", "  icon: []\n")
	report, err := Bundles(context.Background(), []string{dir, goSample}, WithSelector("name=operatorhubv2"))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, f := range report.Findings {
		if f.Severity == finding.SeverityError {
			got = append(got, strings.ReplaceAll(f.File, dir, "DIR")+" "+f.Rule+": "+f.Message)
		}
	}
	want := []string{
		"DIR/manifests/memcached-operator.clusterserviceversion.yaml operator-sdk/optional/operatorhubv2: the operatorhubv2 validator crashed (runtime error: index out of range [0] with length 0): the CSV holds a value it does not expect, such as an empty list (e.g. icon: []) where an item is required; fix the CSV",
		goSample + "/manifests/memcached-operator.clusterserviceversion.yaml operator-sdk/optional/operatorhubv2: Error: Value : (memcached-operator.v0.0.1) csv.Spec.Icon elements should contain both data and mediatype",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

// TestIrregularBundles checks that malformed input is reported on the file at fault, never a crash.
func TestIrregularBundles(t *testing.T) {
	tests := []struct {
		name, file, content string
		want                string
	}{
		{"annotations not YAML", "metadata/annotations.yaml", "annotations:\n  a: b: c=d\n",
			"metadata/annotations.yaml: metadata not found in DIR: DIR/metadata/annotations.yaml: error converting YAML to JSON: yaml: line 2: mapping values are not allowed in this context"},
		{"empty manifest", "manifests/empty.yaml", "",
			"manifests/empty.yaml: error loading objs in directory: unable to decode object: EOF"},
		{"object without kind", "manifests/x.yaml", "metadata:\n  name: x\n",
			"manifests/x.yaml: error loading objs in directory: unable to decode object: error unmarshaling JSON: while decoding JSON: Object 'Kind' is missing in '{\"metadata\":{\"name\":\"x\"}}'"},
		{"hidden file", "manifests/.keep", "",
			"manifests/.keep: error loading objs in directory: bundle manifests dir has hidden file: DIR/manifests/.keep"},
		{"CSV of the wrong shape", "manifests/memcached-operator.clusterserviceversion.yaml", "apiVersion: operators.coreos.com/v1alpha1\nkind: ClusterServiceVersion\nmetadata:\n  name: x.v1\nspec: []\n",
			"manifests: [error loading objs in directory: unable to parse CSV memcached-operator.clusterserviceversion.yaml: error unmarshaling JSON: while decoding JSON: json: cannot unmarshal array into Go struct field ClusterServiceVersion.spec of type v1alpha1.ClusterServiceVersionSpec, no bundle csv found, unable to load bundle from directory DIR/manifests]"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := copyTree(t, goSample)
			if err := os.WriteFile(filepath.Join(dir, tt.file), []byte(tt.content), 0o644); err != nil {
				t.Fatal(err)
			}
			report, err := Bundles(context.Background(), []string{dir})
			if err != nil {
				t.Fatal(err)
			}
			if len(report.Findings) != 1 || report.Findings[0].Severity != finding.SeverityError {
				t.Fatalf("want one error, got %v", report.Findings)
			}
			f := report.Findings[0]
			got := strings.ReplaceAll(strings.TrimPrefix(f.File, dir+"/")+": "+f.Message, dir, "DIR")
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

// TestBundlesProgress: WithProgress sees every argument once, done counting up to the total, at any
// parallelism.
func TestBundlesProgress(t *testing.T) {
	samples, err := filepath.Glob("../../testdata/validate/samples/*/bundle")
	if err != nil || len(samples) < 2 {
		t.Fatalf("samples: %v %v", samples, err)
	}
	args := append(samples, samples...)
	for _, parallel := range []int{1, 3} {
		t.Run(fmt.Sprintf("parallel %d", parallel), func(t *testing.T) {
			type call struct{ Done, Total int }
			var got []call
			if _, err := Bundles(context.Background(), args, WithParallelism(parallel), WithAPIServerChecks(false),
				WithProgress(func(done, total int) { got = append(got, call{done, total}) })); err != nil {
				t.Fatal(err)
			}
			var want []call
			for i := range args {
				want = append(want, call{i + 1, len(args)})
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("progress calls (-want +got):\n%s", diff)
			}
		})
	}
}
