package image

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// recordingPublisher records what it published and may fail.
type recordingPublisher struct {
	name string
	err  error
	log  *[]string
}

func (p recordingPublisher) Publish(_ context.Context, a Artifact) (string, error) {
	*p.log = append(*p.log, p.name)
	if p.err != nil {
		return "", p.err
	}
	h, err := a.Digest()
	return p.name + "@" + h.String(), err
}

func TestMultiPublisher(t *testing.T) {
	img := imageOf(t, tarLayer(t, entry{Name: "a", Type: '0', Body: "x"}))
	h := mustDigest(t, img).String()
	boom := errors.New("boom")
	for _, tc := range []struct {
		name    string
		pubs    []string // "!" prefix: that destination fails
		want    string
		wantErr string
		wantLog []string
	}{
		{name: "none", wantErr: "no destination"},
		{name: "one", pubs: []string{"a"}, want: "a@" + h, wantLog: []string{"a"}},
		{name: "several, the last names it", pubs: []string{"a", "b", "c"}, want: "c@" + h, wantLog: []string{"a", "b", "c"}},
		{name: "stops at the first failure", pubs: []string{"a", "!b", "c"}, wantErr: "boom", wantLog: []string{"a", "!b"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var log []string
			var ps []Publisher
			for _, n := range tc.pubs {
				p := recordingPublisher{name: n, log: &log}
				if strings.HasPrefix(n, "!") {
					p.err = boom
				}
				ps = append(ps, p)
			}
			got, err := NewMultiPublisher(ps...).Publish(t.Context(), img)
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("Publish() error = %v, want %q", err, tc.wantErr)
				}
			} else if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("Publish() (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tc.wantLog, log); diff != "" {
				t.Errorf("destinations published to (-want +got):\n%s", diff)
			}
		})
	}
}

// TestMultiPublisherDestinations publishes one image to a registry, an OCI layout and a tarball
// at once, and reads each back with the same digest.
func TestMultiPublisherDestinations(t *testing.T) {
	host := newRegistry(t, nil)
	bundle, err := Bundle(t.Context(), bundleDir)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	lp, err := NewLayoutPublisher(filepath.Join(dir, "oci"), "v1", LayoutKeepUnchanged())
	if err != nil {
		t.Fatal(err)
	}
	tp, err := NewTarballPublisher(filepath.Join(dir, "bundle.tar"), host+"/demo/bundle:v1")
	if err != nil {
		t.Fatal(err)
	}
	rp, err := NewRegistryPublisher(host+"/demo/bundle:v1", testOptions()...)
	if err != nil {
		t.Fatal(err)
	}
	got, err := NewMultiPublisher(lp, tp, rp).Publish(t.Context(), bundle)
	if err != nil {
		t.Fatal(err)
	}
	want := host + "/demo/bundle@" + mustDigest(t, bundle).String()
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Publish() (-want +got):\n%s", diff)
	}
	for _, ref := range []string{LayoutPrefix + filepath.Join(dir, "oci") + ":v1", host + "/demo/bundle:v1"} {
		r, err := Inspect(t.Context(), ref, testOptions()...)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(mustDigest(t, bundle).String(), r.Digest); diff != "" {
			t.Errorf("%s (-want +got):\n%s", ref, diff)
		}
	}
}
