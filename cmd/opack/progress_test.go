package main

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

func TestProgressLine(t *testing.T) {
	tests := []struct {
		name    string
		done    int
		total   int
		elapsed time.Duration
		want    string
	}{
		{"nothing done yet", 0, 7018, 0, "validating bundles: 0/7018"},
		{"nothing done after a while", 0, 7018, 3 * time.Second, "validating bundles: 0/7018"},
		{"rate and eta", 120, 7018, 4 * time.Second, "validating bundles: 120/7018, 30.0/s, ETA 3m50s"},
		{"slow", 1, 10, 2 * time.Second, "validating bundles: 1/10, 0.5/s, ETA 18s"},
		{"eta rounded to seconds", 3, 4, 1500 * time.Millisecond, "validating bundles: 3/4, 2.0/s, ETA 1s"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, progressLine("validating bundles", tt.done, tt.total, tt.elapsed)); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

// TestRateProgress: each update rewrites the line, updates closer than the interval are dropped,
// and the last one clears the line.
func TestRateProgress(t *testing.T) {
	clock := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	now := func() time.Time { return clock }
	var w bytes.Buffer
	progress := rateProgress(&w, "validating bundles", 100*time.Millisecond, now)
	var got []string
	for _, step := range []struct {
		after time.Duration
		done  int
	}{{time.Second, 1}, {50 * time.Millisecond, 2}, {950 * time.Millisecond, 3}, {time.Millisecond, 4}} {
		clock = clock.Add(step.after)
		w.Reset()
		progress(step.done, 4)
		got = append(got, w.String())
	}
	want := []string{
		"\r\033[Kvalidating bundles: 1/4, 1.0/s, ETA 3s",
		"", // 50ms after the last update
		"\r\033[Kvalidating bundles: 3/4, 1.5/s, ETA 1s",
		"\r\033[K",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

// TestValidateBundleNoProgressOffTerminal: with stderr not a terminal, validating several bundles
// writes only the summary to stderr, and -o json's stdout is JSON alone.
func TestValidateBundleNoProgressOffTerminal(t *testing.T) {
	samples, err := filepath.Glob("../../testdata/validate/samples/*/bundle")
	if err != nil || len(samples) < 2 {
		t.Fatalf("samples: %v %v", samples, err)
	}
	for _, format := range []string{"text", "json"} {
		t.Run(format, func(t *testing.T) {
			code, stdout, stderr := runOpack(t, "", append([]string{"validate", "bundle", "--sdk-only", "-o", format}, samples...)...)
			if code == exitUsage {
				t.Fatalf("exit %d: %s", code, stderr)
			}
			if !strings.HasPrefix(stderr, "validate bundle: ") || strings.Count(stderr, "\n") != 1 || strings.ContainsAny(stderr+stdout, "\r\033") {
				t.Errorf("stderr %q: want the summary line alone, no progress", stderr)
			}
			if format == "json" && !strings.HasPrefix(stdout, "{") {
				t.Errorf("stdout %q is not JSON alone", stdout)
			}
		})
	}
}
