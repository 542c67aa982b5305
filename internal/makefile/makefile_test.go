package makefile

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func read(t *testing.T, text string, files map[string]string, opts ...Option) *File {
	t.Helper()
	dir := t.TempDir()
	files["Makefile"] = text
	for name, data := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	f, err := Read(filepath.Join(dir, "Makefile"), opts...)
	if err != nil {
		t.Fatal(err)
	}
	return f
}

func TestValues(t *testing.T) {
	tests := []struct {
		name     string
		makefile string
		files    map[string]string
		opts     []Option
		want     map[string]string // variable → value, or "?" + a part of why it is unresolved
	}{
		{name: "operator-sdk defaults", makefile: `VERSION ?= 0.0.1
IMAGE_TAG_BASE ?= example.com/memcached-operator
BUNDLE_IMG ?= $(IMAGE_TAG_BASE)-bundle:v$(VERSION)
CATALOG_IMG ?= ${IMAGE_TAG_BASE}-catalog:v$(VERSION)
VERSION ?= 9.9.9 # ?= keeps the first
`, want: map[string]string{"VERSION": "0.0.1", "BUNDLE_IMG": "example.com/memcached-operator-bundle:v0.0.1",
			"CATALOG_IMG": "example.com/memcached-operator-catalog:v0.0.1"}},
		{name: "recursive sees later values, simple does not", makefile: "A = $(B)\nC := $(B)\nB = late\n",
			want: map[string]string{"A": "late", "C": ""}},
		{name: "append", makefile: "F ?= -q --overwrite\nF += --use-image-digests\nS := a\nS += b\n",
			want: map[string]string{"F": "-q --overwrite --use-image-digests", "S": "a b"}},
		{name: "conditionals", makefile: `CHANNELS = alpha
ifneq ($(origin CHANNELS), undefined)
BUNDLE_CHANNELS := --channels=$(CHANNELS)
endif
ifneq ($(origin DEFAULT_CHANNEL), undefined)
BUNDLE_DEFAULT_CHANNEL := --default-channel=$(DEFAULT_CHANNEL)
endif
BUNDLE_METADATA_OPTS ?= $(BUNDLE_CHANNELS) $(BUNDLE_DEFAULT_CHANNEL)
USE_IMAGE_DIGESTS ?= false
ifeq ($(USE_IMAGE_DIGESTS), true)
	BUNDLE_GEN_FLAGS += --use-image-digests
else ifeq "$(USE_IMAGE_DIGESTS)" "false"
	MODE = tags
endif
ifdef CHANNELS
HAS = yes
endif
`, want: map[string]string{"BUNDLE_METADATA_OPTS": "--channels=alpha ", "MODE": "tags", "HAS": "yes", "BUNDLE_GEN_FLAGS": ""}},
		{name: "override like make VERSION=x", makefile: "VERSION ?= 1.0.0\nIMG ?= repo:v$(VERSION)\n", opts: []Option{Override("VERSION", "2.0.0")},
			want: map[string]string{"VERSION": "2.0.0", "IMG": "repo:v2.0.0"}},
		{name: "what make only knows by running", makefile: `VERSION ?= $(shell git describe)
IMAGE_TAG_BASE ?= $(IMAGE_REPO)/operator
ifeq (,$(shell go env GOBIN))
GOBIN = $(shell go env GOPATH)/bin
endif
DIR := $(CURDIR)
N != date
`, want: map[string]string{"VERSION": "?$(shell ...), which runs a shell command", "IMAGE_TAG_BASE": "?IMAGE_REPO is not set in the Makefile",
			"GOBIN": "?under the condition at Makefile:3", "DIR": "?CURDIR depends on where make runs", "N": "?shell command (!=)"}},
		{name: "include and functions", makefile: "include make/*.mk\nX = $(strip  a   b )\nY = $(subst -,_,$(NAME))\nZ = $(patsubst %.go,%.o,a.go b.go)\nW = $(if $(NAME),yes,no)\n",
			files: map[string]string{"make/vars.mk": "NAME = my-op\n"},
			want:  map[string]string{"NAME": "my-op", "X": "a b", "Y": "my_op", "Z": "a.o b.o", "W": "yes"}},
		{name: "comments and continuations", makefile: "A = one \\\n    two # comment\nB = x\\#y\n",
			want: map[string]string{"A": "one two", "B": "x#y"}},
		{name: "quotes are kept as make keeps them", makefile: "DEFAULT_CHANNEL = \"alpha\"\n",
			want: map[string]string{"DEFAULT_CHANNEL": `"alpha"`}},
		// $(shell cat FILE) is read as make folds the output; every other command, and a name the shell
		// could change or that leaves the folder, stays unread.
		{name: "shell cat of a file", makefile: `VERSION ?= $(shell cat VERSION)
CRLF := $(shell cat crlf.txt)
LINES := $(shell cat hack/lines)
NONE := $(shell cat MISSING)
PIPE := $(shell cat VERSION | tr -d v)
GLOB := $(shell cat VERS*)
UP := $(shell cat ../VERSION)
ABS := $(shell cat /etc/hostname)
TWO := $(shell cat VERSION VERSION)
F = VERSION
VIA := $(shell cat $(F))
`, files: map[string]string{"VERSION": "1.3.8\n", "crlf.txt": "0.2.0\r\n", "hack/lines": "a\nb\n\n\n"},
			want: map[string]string{"VERSION": "1.3.8", "CRLF": "0.2.0", "LINES": "a b", "NONE": "", "VIA": "1.3.8",
				"PIPE": "?runs a shell command", "GLOB": "?runs a shell command", "UP": "?runs a shell command",
				"ABS": "?runs a shell command", "TWO": "?runs a shell command"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			files := tt.files
			if files == nil {
				files = map[string]string{}
			}
			f := read(t, tt.makefile, files, tt.opts...)
			got := map[string]string{}
			for name, want := range tt.want {
				v := f.Value(name)
				got[name] = v.Text
				if strings.HasPrefix(want, "?") {
					got[name] = "?"
					if strings.Contains(v.Unresolved, want[1:]) {
						got[name] = want
					} else {
						got[name] = "?" + v.Unresolved
					}
				}
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("values (-want +got):\n%s", diff)
			}
		})
	}
}

func TestValuePosition(t *testing.T) {
	f := read(t, "# header\nVERSION ?= 0.1.0\n", map[string]string{})
	v := f.Value("VERSION")
	if v.At.String() != "Makefile:2" || v.At.Text != "VERSION ?= 0.1.0" || !v.Set {
		t.Errorf("value %+v", v)
	}
	if v := f.Value("MISSING"); v.Set || v.Unresolved != "" {
		t.Errorf("missing variable %+v", v)
	}
}

func TestImageEdits(t *testing.T) {
	f := read(t, `IMG ?= quay.io/me/op:v$(VERSION)
VERSION ?= 1.2.3
.PHONY: bundle
bundle: manifests kustomize ## Generate bundle manifests
	$(OPERATOR_SDK) generate kustomize manifests -q
	cd config/manager && $(KUSTOMIZE) edit set image controller=$(IMG)
	cd config/webhook && $(KUSTOMIZE) edit set image webhook=$(IMG) other=quay.io/me/other@sha256:abc
	$(KUSTOMIZE) build config/manifests | $(OPERATOR_SDK) generate bundle $(BUNDLE_GEN_FLAGS)
	cd config/manager && $(KUSTOMIZE) edit set image controller=controller:latest
other:
	cd config/x && kustomize edit set image x=y
`, map[string]string{})
	var got []string
	for _, e := range f.ImageEdits("bundle") {
		got = append(got, e.At.Pos.String()+" "+e.Dir+" "+strings.Join(e.Args, " ")+e.Unresolved)
	}
	want := []string{
		"Makefile:6 config/manager controller=quay.io/me/op:v1.2.3",
		"Makefile:7 config/webhook webhook=quay.io/me/op:v1.2.3 other=quay.io/me/other@sha256:abc",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("image edits (-want +got):\n%s", diff)
	}
}

func TestMissingInclude(t *testing.T) {
	f := read(t, "include .env\n-include optional.mk\nA = 1\n", map[string]string{})
	if diff := cmp.Diff([]string{"Makefile:1: include .env: no file matches " + filepath.Join(filepath.Dir(f.root), filepath.Base(f.root), ".env")}, f.Problems); diff != "" {
		t.Errorf("problems (-want +got):\n%s", diff)
	}
	if f.Value("A").Text != "1" {
		t.Errorf("A = %+v", f.Value("A"))
	}
}
