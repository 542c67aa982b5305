package templates

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestMakefileOpackDryRun expands the targets of Makefile.opack with make -n as a project's
// Makefile includes it (kernel-module-management's four image pins, node-healthcheck-operator's
// kustomize folder), and checks the commands make would run.
func TestMakefileOpackDryRun(t *testing.T) {
	if _, err := exec.LookPath("make"); err != nil {
		t.Skip("make is not installed")
	}
	data := Makefile()
	dir := t.TempDir()
	project := "VERSION ?= 1.2.3\nIMG ?= quay.io/acme/op:v$(VERSION)\nWORKER_IMG ?= quay.io/acme/worker:v$(VERSION)\n" +
		"KUSTOMIZE ?= bin/kustomize\ninclude Makefile.opack\nmanifests:\nkustomize:\n"
	for name, content := range map[string]string{"Makefile": project, "Makefile.opack": string(data), "PROJECT": "projectName: acme-operator\n"} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	tests := []struct {
		name string
		args []string
		want []string
	}{
		{"bundle", []string{"bundle"}, []string{
			"bin/opack generate kustomize-manifests -q --interactive=false",
			"set -e; for pin in config/manager:controller=quay.io/acme/op:v1.2.3; do \\",
			"bin/opack generate bundle -q --overwrite --version 1.2.3   --kustomize-dir config/manifests --kustomize-manifests=false",
			"bin/opack validate bundle ./bundle",
		}},
		{"bundle with every pin and flag of a real Makefile", []string{"bundle", "CHANNELS=stable", "DEFAULT_CHANNEL=stable",
			"KUSTOMIZE_IMAGE_PINS=config/manager:controller=$(IMG) config/manager:worker=$(WORKER_IMG)",
			"KUSTOMIZE_MANIFESTS_FLAGS=-q --input-dir config/manifests/base --output-dir config/manifests/base", "KUSTOMIZE_DIR=config/manifests/base"}, []string{
			"bin/opack generate kustomize-manifests -q --input-dir config/manifests/base --output-dir config/manifests/base",
			"set -e; for pin in config/manager:controller=quay.io/acme/op:v1.2.3 config/manager:worker=quay.io/acme/worker:v1.2.3; do \\",
			"bin/opack generate bundle -q --overwrite --version 1.2.3 --channels=stable --default-channel=stable --kustomize-dir config/manifests/base --kustomize-manifests=false",
			"bin/opack validate bundle ./bundle",
		}},
		{"images where opack build writes them", []string{"bundle-build", "catalog-build"}, []string{
			"bin/opack image bundle bundle --tag example.com/" + filepath.Base(dir) + "-bundle:v1.2.3 --oci-layout _output/images/bundle",
			"bin/opack build --version 1.2.3",
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cmd := exec.Command("make", append([]string{"-s", "-n", "OPACK=bin/opack"}, tt.args...)...)
			cmd.Dir = dir
			out, err := cmd.CombinedOutput()
			if err != nil {
				t.Fatalf("make -n: %v\n%s", err, out)
			}
			var got []string
			for _, l := range strings.Split(strings.TrimSpace(string(out)), "\n") {
				if !strings.HasPrefix(l, "  ") && !strings.HasPrefix(l, "\t") && !strings.HasPrefix(l, "done") {
					got = append(got, l)
				}
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("commands (-want +got):\n%s\nfull output:\n%s", diff, out)
			}
		})
	}
}
