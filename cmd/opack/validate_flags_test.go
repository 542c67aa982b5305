package main

import (
	"bytes"
	"context"
	"io"
	"sort"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/spf13/pflag"
)

// TestValidateFlagPlaceholders: pflag takes the first `quoted` text of a usage as the value placeholder;
// each flag of the validate and convert commands shows one plain word there.
func TestValidateFlagPlaceholders(t *testing.T) {
	tests := []struct {
		path []string
		want map[string]string // flag -> placeholder ("" for a bool flag)
	}{
		{[]string{"validate", "crds"}, map[string]string{"cluster-crd": "file", "instances": "paths", "policy": "file",
			"output": "format", "stored-versions": "versions", "olmv1-min-version": "release"}},
		{[]string{"validate", "bundle"}, map[string]string{"select-optional": "selector", "optional-values": "key=value",
			"output": "format", "parallel": "number", "list-optional": "", "insecure": "", "sdk-only": ""}},
		{[]string{"convert", "packagemanifests"}, map[string]string{"output-dir": "folder"}},
	}
	root := newRootCmd(nil, io.Discard, io.Discard)
	for _, tt := range tests {
		t.Run(strings.Join(tt.path, " "), func(t *testing.T) {
			cmd, _, err := root.Find(tt.path)
			if err != nil {
				t.Fatal(err)
			}
			got := map[string]string{}
			cmd.LocalNonPersistentFlags().VisitAll(func(f *pflag.Flag) {
				if f.Name == "help" {
					return
				}
				name, _ := pflag.UnquoteUsage(f)
				got[f.Name] = name
			})
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("placeholders (-want +got):\n%s", diff)
			}
		})
	}
}

// TestValidateOutputFormatErrors: a bad -o value gives the same error in every validate command.
func TestValidateOutputFormatErrors(t *testing.T) {
	good := validateTestdata("samples", "memcached-operator", "bundle")
	tests := [][]string{
		{"validate", "bundle", good, "-o", "x"},
		{"validate", "crds", good, good, "-o", "x"},
		{"validate", "crds", "--cluster-crd", good, good, "-o", "x"},
	}
	want := "Error: unknown output format \"x\": use one of text, json, github\n"
	var got []string
	for _, args := range tests {
		var stdout, stderr bytes.Buffer
		if code := run(context.Background(), args, nil, &stdout, &stderr); code != exitUsage {
			t.Errorf("%v: exit code %d, want %d", args, code, exitUsage)
		}
		got = append(got, stderr.String())
	}
	sort.Strings(got)
	if diff := cmp.Diff([]string{want, want, want}, got); diff != "" {
		t.Errorf("stderr (-want +got):\n%s", diff)
	}
}
