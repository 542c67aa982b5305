package main

import (
	"bytes"
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/opack/opack/internal/image"
)

func validateTestdata(parts ...string) string {
	return filepath.Join(append([]string{"..", "..", "testdata", "validate"}, parts...)...)
}

func TestValidateBundleCmd(t *testing.T) {
	good := validateTestdata("samples", "memcached-operator", "bundle")
	bad := validateTestdata("cases", "sa-conflict", "bundle")
	empty := t.TempDir()
	tests := []struct {
		name       string
		args       []string
		code       int
		stdout     string // a substring of stdout
		stderrPart string // a substring of stderr
	}{
		{"passes with warnings", []string{good}, exitOK, "warning: " + good + "/manifests/memcached-operator.clusterserviceversion.yaml: ClusterServiceVersion memcached-operator.v0.0.1: Warning: Value : (memcached-operator.v0.0.1) csv.Spec.minKubeVersion is not informed.", "1 argument(s), 0 errors, 1 warning"},
		{"errors", []string{good, bad}, exitFindings, "error: " + bad + "/manifests/memcached-operator.clusterserviceversion.yaml: ClusterServiceVersion memcached-operator.v0.0.1: Error: Value memcached-operator-controller-manager: invalid service account found in bundle.", "2 argument(s), 1 error, 2 warnings"},
		{"json", []string{bad, "-o", "json"}, exitFindings, "{\n    \"passed\": false,\n    \"outputs\": [\n        {\n            \"type\": \"error\",", ""},
		{"json-alpha1", []string{good, "-o", "json-alpha1"}, exitOK, "\"passed\": true", ""},
		{"github", []string{bad, "-o", "github"}, exitFindings, "::error file=" + bad + "/manifests/memcached-operator.clusterserviceversion.yaml,title=ClusterServiceVersion memcached-operator.v0.0.1 operator-sdk/bundle::Error: Value memcached-operator-controller-manager", ""},
		{"suite", []string{good, "--select-optional", "suite=operatorframework"}, exitFindings, "csv.Spec.Icon elements should contain both data and mediatype", ""},
		{"list optional", []string{"--list-optional"}, exitOK, "best-practices           name=best-practices,suite=opack", ""},
		{"missing path", []string{"no/such/dir"}, exitUsage, "", "Error: no/such/dir: no such file or folder"},
		{"empty folder", []string{empty}, exitFindings, "error: " + empty + ": " + empty + " is empty: not a bundle", "1 argument(s), 1 error, 0 warnings"},
		{"bad output", []string{good, "-o", "yaml"}, exitUsage, "", `unknown output format "yaml": use one of text, json, github`},
		{"bad selector", []string{good, "--select-optional", "name=x"}, exitUsage, "", `selector "name=x" does not match any validator labels`},
		{"no argument", nil, exitUsage, "", "give at least one bundle folder or image"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			code := run(context.Background(), append([]string{"validate", "bundle"}, tt.args...), nil, &stdout, &stderr)
			if code != tt.code {
				t.Errorf("exit code = %d, want %d; stderr:\n%s", code, tt.code, stderr.String())
			}
			if !strings.Contains(stdout.String(), tt.stdout) {
				t.Errorf("stdout does not contain %q:\n%s", tt.stdout, stdout.String())
			}
			if !strings.Contains(stderr.String(), tt.stderrPart) {
				t.Errorf("stderr does not contain %q:\n%s", tt.stderrPart, stderr.String())
			}
		})
	}
}

// TestValidateBundleImage validates a bundle image from an OCI layout, pulled and unpacked without docker.
func TestValidateBundleImage(t *testing.T) {
	ctx := context.Background()
	layout := filepath.Join(t.TempDir(), "layout")
	p, err := image.NewLayoutPublisher(layout, "v1")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := image.PublishBundle(ctx, validateTestdata("cases", "sa-conflict", "bundle"), p); err != nil {
		t.Fatal(err)
	}
	ref := "oci:" + layout + ":v1"
	var stdout, stderr bytes.Buffer
	code := run(ctx, []string{"validate", "bundle", ref}, nil, &stdout, &stderr)
	if code != exitFindings {
		t.Errorf("exit code = %d, want %d; stderr:\n%s", code, exitFindings, stderr.String())
	}
	want := "error: " + ref + "/manifests/memcached-operator.clusterserviceversion.yaml: ClusterServiceVersion memcached-operator.v0.0.1: Error: Value memcached-operator-controller-manager: invalid service account found in bundle."
	if !strings.Contains(stdout.String(), want) {
		t.Errorf("stdout does not contain %q:\n%s", want, stdout.String())
	}
}
