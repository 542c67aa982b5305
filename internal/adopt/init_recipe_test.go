package adopt

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/opack/opack/internal/project/config"
)

// scaffoldMakefile is operator-sdk's scaffolded bundle target with the variables a test sets.
const scaffoldMakefile = `LOCALBIN ?= $(shell pwd)/bin
OPERATOR_SDK ?= $(LOCALBIN)/operator-sdk
KUSTOMIZE ?= $(LOCALBIN)/kustomize
ifneq ($(origin CHANNELS), undefined)
BUNDLE_CHANNELS := --channels=$(CHANNELS)
endif
ifneq ($(origin DEFAULT_CHANNEL), undefined)
BUNDLE_DEFAULT_CHANNEL := --default-channel=$(DEFAULT_CHANNEL)
endif
BUNDLE_METADATA_OPTS ?= $(BUNDLE_CHANNELS) $(BUNDLE_DEFAULT_CHANNEL)
BUNDLE_GEN_FLAGS ?= -q --overwrite --version $(VERSION) $(BUNDLE_METADATA_OPTS)
IMAGE_TAG_BASE ?= quay.io/acme/memcached-operator
BUNDLE_IMG ?= $(IMAGE_TAG_BASE)-bundle:v$(VERSION)

.PHONY: bundle
bundle: manifests kustomize operator-sdk
	$(OPERATOR_SDK) generate kustomize manifests -q
	cd config/manager && $(KUSTOMIZE) edit set image controller=$(IMG)
	$(KUSTOMIZE) build config/manifests | $(OPERATOR_SDK) generate bundle $(BUNDLE_GEN_FLAGS) %s
	$(OPERATOR_SDK) bundle validate ./bundle
`

func initWith(t *testing.T, makefile string) (*InitResult, error) {
	t.Helper()
	dir := sample(t)
	if err := writeFile(filepath.Join(dir, "Makefile"), makefile); err != nil {
		t.Fatal(err)
	}
	return Init(context.Background(), dir, InitOptions{})
}

// TestInitReadsTheRecipe reads the bundle target as make and the shell run it: flags on the recipe
// line, quoting, $(origin) idioms, shell escapes.
func TestInitReadsTheRecipe(t *testing.T) {
	type want struct {
		Version, DefaultChannel, KustomizeDir, BundleDir string
		Channels, ExtraSAs                               []string
		Images                                           []config.ImageAlias
	}
	tests := []struct {
		name, vars, flags string
		want              want
	}{
		{name: "scaffold defaults: no --channels is alpha, no --default-channel names none",
			vars: "VERSION ?= 0.0.3\nIMG ?= $(IMAGE_TAG_BASE):v$(VERSION)\n",
			want: want{Version: "0.0.3", Channels: []string{"alpha"}, KustomizeDir: "config/manifests", BundleDir: "bundle",
				Images: []config.ImageAlias{{Name: "controller", Dir: "config/manager", NewName: "quay.io/acme/memcached-operator", NewTag: "v{{.Version}}"}}}},
		{name: "quoted flags on the recipe line, shell escapes in a variable",
			vars:  "VERSION ?= 1.2.0\nCHANNELS ?= fast,fast-\\$${CI_X_VERSION}\nDEFAULT_CHANNEL = \"fast\"\nIMG ?= controller:latest\n",
			flags: `--extra-service-accounts "controller,speaker" --output-dir out/bundle`,
			want: want{Version: "1.2.0", Channels: []string{"fast", "fast-${CI_X_VERSION}"}, DefaultChannel: "fast", KustomizeDir: "config/manifests", BundleDir: "out/bundle",
				ExtraSAs: []string{"controller", "speaker"}, Images: []config.ImageAlias{{Name: "controller", Dir: "config/manager", NewName: "controller", NewTag: "latest"}}}},
		{name: "$(origin VERSION): the image tag make computes for the default version is kept as make gives it",
			vars: "ifeq ($(origin VERSION), undefined)\nVERSION ?= 3.6.1\nIMAGE_TAG := $(word 1,$(subst ., ,$(VERSION))).$(word 2,$(subst ., ,$(VERSION)))\nelse\nIMAGE_TAG := $(VERSION)\nendif\nIMG ?= quay.io/acme/op:$(IMAGE_TAG)\n",
			want: want{Version: "3.6.1", Channels: []string{"alpha"}, KustomizeDir: "config/manifests", BundleDir: "bundle",
				Images: []config.ImageAlias{{Name: "controller", Dir: "config/manager", NewName: "quay.io/acme/op", NewTag: "3.6"}}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, err := initWith(t, tt.vars+strings.Replace(scaffoldMakefile, "%s", tt.flags, 1))
			if err != nil {
				t.Fatal(err)
			}
			p := res.Project
			got := want{Version: p.Version, DefaultChannel: "", KustomizeDir: p.KustomizeDir, BundleDir: p.Bundle.Dir, Channels: p.Channels,
				ExtraSAs: p.Bundle.ExtraServiceAccounts, Images: p.Images}
			if p.BundleDefaultChannel() != "" {
				got.DefaultChannel = p.DefaultChannel
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("init (-want +got):\n%s\nnotes:\n%s", diff, strings.Join(res.Notes, "\n"))
			}
		})
	}
}

// TestInitNamesWhatItCannotRead: every value of make bundle init could not read is in its notes,
// with its line; one that decides what is built stops init with the line and the flag to pass.
func TestInitNamesWhatItCannotRead(t *testing.T) {
	vars := "VERSION ?= $(shell git describe --tags)\nCHANNELS ?= $(RELEASE_CHANNELS)\nDEFAULT_CHANNEL = $$(cat channel)\nIMG ?= $(REGISTRY)/op:$(VERSION)\n"
	res, err := initWith(t, vars+strings.Replace(scaffoldMakefile, "%s", `--extra-service-accounts "$$(cat sas)"`, 1))
	if err != nil {
		t.Fatal(err)
	}
	notes := strings.Join(res.Notes, "\n")
	for _, want := range []string{
		"Makefile:23: $(KUSTOMIZE) build config/manifests | $(OPERATOR_SDK) generate bundle $(BUNDLE_GEN_FLAGS) --extra-service-accounts \"$$(cat sas)\": generate bundle --version not read: $(shell ...), which runs a shell command",
		"generate bundle --channels not read: BUNDLE_CHANNELS (Makefile:9: BUNDLE_CHANNELS := --channels=$(CHANNELS)): RELEASE_CHANNELS is not set in the Makefile",
		"generate bundle --default-channel not read: a command substitution",
		"generate bundle --extra-service-accounts not read: a command substitution",
		"Makefile:22: cd config/manager && $(KUSTOMIZE) edit set image controller=$(IMG): image not read: REGISTRY is not set",
	} {
		if !strings.Contains(notes, want) {
			t.Errorf("notes lack %q:\n%s", want, notes)
		}
	}
	stops := []struct{ flags, want string }{
		{"--package $(PKG)", "Makefile:20: $(KUSTOMIZE) build config/manifests | $(OPERATOR_SDK) generate bundle $(BUNDLE_GEN_FLAGS) --package $(PKG): the package name (--package) is not known without running make: PKG is not set in the Makefile (make takes it from the environment or its command line); fix: pass --package to opack init"},
		{"--output-dir $$OUT", "the bundle folder (--output-dir) is not known without running make: $OUT, a variable of the shell that runs the recipe; fix: pass --bundle-dir to opack init"},
		{"$(shell hack/more-flags.sh)", "the package name (--package) is not known without running make: $(shell ...), which runs a shell command"},
	}
	for _, s := range stops {
		_, err := initWith(t, "VERSION ?= 0.0.1\n"+strings.Replace(scaffoldMakefile, "%s", s.flags, 1))
		if err == nil || !strings.Contains(err.Error(), s.want) {
			t.Errorf("flags %s: got %v, want an error with %q", s.flags, err, s.want)
		}
	}
}

// TestInitProfiles: a Makefile that loops over profiles gets one bundle per profile, read as
// make bundle PROFILE=<p> builds it.
func TestInitProfiles(t *testing.T) {
	dir := sample(t)
	for _, p := range []string{"community", "product"} {
		base := filepath.Join(dir, "config", "manifests", p)
		if err := copyFile(filepath.Join(dir, "config", "manifests", "bases", "memcached-operator.clusterserviceversion.yaml"), filepath.Join(base, "bases", "memcached-operator.clusterserviceversion.yaml")); err != nil {
			t.Fatal(err)
		}
		if err := writeFile(filepath.Join(base, "kustomization.yaml"), "resources:\n- bases/memcached-operator.clusterserviceversion.yaml\n- ../../default\n"); err != nil {
			t.Fatal(err)
		}
	}
	makefile := `VERSION ?= 0.0.1
PROFILE ?= community
PROFILES = community product
IMAGE_TAG_BASE ?= quay.io/acme/$(PROFILE)
ifeq ($(PROFILE), product)
CHANNELS = stable
endif
BUNDLE_IMG ?= $(IMAGE_TAG_BASE)-bundle:v$(VERSION)
bundles:
	for p in $(PROFILES); do $(MAKE) bundle PROFILE=$$p; done
bundle:
	operator-sdk generate kustomize manifests -q --input-dir config/manifests/$(PROFILE) --output-dir config/manifests/$(PROFILE)
	kustomize build config/manifests/$(PROFILE) | operator-sdk generate bundle -q --version $(VERSION) --kustomize-dir config/manifests/$(PROFILE) --output-dir bundle/$(PROFILE) $(if $(CHANNELS),--channels=$(CHANNELS))
`
	if err := writeFile(filepath.Join(dir, "Makefile"), makefile); err != nil {
		t.Fatal(err)
	}
	res, err := Init(context.Background(), dir, InitOptions{})
	if err != nil {
		t.Fatal(err)
	}
	type part struct{ Name, KustomizeDir, BundleDir, Image, Channels string }
	var got []part
	for _, p := range res.Project.Parts() {
		got = append(got, part{p.Name, p.KustomizeDir, p.Bundle.Dir, p.Bundle.Image, strings.Join(p.Channels, ",")})
	}
	want := []part{{"community", "config/manifests/community", "bundle/community", "quay.io/acme/community-bundle", "alpha"},
		{"product", "config/manifests/product", "bundle/product", "quay.io/acme/product-bundle", "stable"}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("bundles (-want +got):\n%s\nnotes:\n%s", diff, strings.Join(res.Notes, "\n"))
	}
}

// TestInitSubMakeIsNoProfile: a target running make bundle with a variable set from the environment
// (a CI target's IMG=$(CI_IMAGE)) names no profiles when the variable changes neither the package
// nor the folders make bundle builds: one bundle, no note about IMG's values.
func TestInitSubMakeIsNoProfile(t *testing.T) {
	dir := sample(t)
	makefile := `VERSION ?= 0.0.1
IMAGE_TAG_BASE ?= quay.io/acme/memcached-operator
IMG ?= $(IMAGE_TAG_BASE):v$(VERSION)
e2e-ci:
	$(MAKE) bundle IMG=${CI_IMAGE} VERSION=$(VERSION)
bundle:
	cd config/manager && kustomize edit set image controller=$(IMG)
	kustomize build config/manifests | operator-sdk generate bundle -q --overwrite --version $(VERSION)
`
	if err := writeFile(filepath.Join(dir, "Makefile"), makefile); err != nil {
		t.Fatal(err)
	}
	res, err := Init(context.Background(), dir, InitOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if n := len(res.Project.Parts()); n != 1 {
		t.Errorf("%d bundles, want 1", n)
	}
	if notes := strings.Join(res.Notes, "\n"); strings.Contains(notes, "values of IMG") {
		t.Errorf("a note about IMG's values:\n%s", notes)
	}
}

// TestMakefilePackage reads the --package make bundle passes, as make and the shell would, and
// reports nothing when there is none or it cannot be read exactly.
func TestMakefilePackage(t *testing.T) {
	tests := []struct{ name, vars, flags, want string }{
		{name: "flag on the recipe line", flags: "--package memcached-product", want: "memcached-product"},
		{name: "through a variable, quoted", vars: "PKG := memcached-product\n", flags: `--package="$(PKG)"`, want: "memcached-product"},
		{name: "no --package", want: ""},
		{name: "from $(shell)", vars: "PKG := $(shell cat pkg.txt)\n", flags: "--package $(PKG)", want: ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			mk := tc.vars + "VERSION ?= 0.0.1\n" + strings.Replace(scaffoldMakefile, "%s", tc.flags, 1)
			if err := writeFile(filepath.Join(dir, "Makefile"), mk); err != nil {
				t.Fatal(err)
			}
			got, at := MakefilePackage(dir)
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("package (-want +got):\n%s", diff)
			}
			if got != "" && !strings.Contains(at, "Makefile:") {
				t.Errorf("at = %q, want the Makefile's line", at)
			}
		})
	}
}
