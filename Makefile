# opack — see README.md. Every target installs what it needs.
GO       ?= go
BIN      ?= bin/opack
VERSION  ?= $(shell git describe --tags --always --dirty 2>/dev/null)
LDFLAGS  := -X github.com/opack/opack/internal/version.Version=$(VERSION)
PKGS     := ./...

.PHONY: all build test test-fast test-slow lint demo bench fuzz clean test-deps oracle

all: build

# CGO_ENABLED=0: a static binary. The kustomize library imports package plugin, which with cgo makes
# the linker export every symbol for dynamic loading; the static build starts with ~20 MB less
# resident memory (docs/performance.md) and runs on any Linux.
build:
	CGO_ENABLED=0 $(GO) build -trimpath -ldflags "$(LDFLAGS)" -o $(BIN) ./cmd/opack

# test: lint, the fast tests with -race, then corpus-scale and end-to-end tests without it.
test: test-deps lint test-fast test-slow

# test-deps: apt packages, the real CRD API server (k8s.io/apiextensions-apiserver's main, built from
# the tools module hack/tools/apiserver), kube-apiserver (k8s.io/kubernetes v1.36.3, hack/tools/kube-apiserver),
# OLM v0's olm-operator and catalog-operator (operator-lifecycle-manager v0.46.0, hack/tools/olm; v0.26.0,
# hack/tools/olm-v0.26.0) and OLM v1's operator-controller and catalogd (v1.11.0, hack/tools/operator-controller;
# v1.2.0, hack/tools/operator-controller-v1.2.0), and the signing tests' verifiers and registry (imagecopy:
# containers/image v5.40.0, hack/tools/containers-image; cosign v2.6.1, hack/tools/cosign; olareg v0.1.2,
# hack/tools/olareg, for the OCI referrers API), built into ~/.cache/opack-tools one at a time; never linked
# into opack, never committed.
test-deps:
	@bash hack/install-test-deps.sh
	@bash hack/build-apiserver.sh >/dev/null
	@bash hack/build-apiserver.sh kube-apiserver >/dev/null
	@bash hack/build-apiserver.sh olm-operator catalog-operator cpb copy-content >/dev/null
	@bash hack/build-apiserver.sh operator-controller catalogd >/dev/null
	@bash hack/build-apiserver.sh olm-operator@v0.26.0 catalog-operator@v0.26.0 cpb@v0.26.0 copy-content@v0.26.0 >/dev/null
	@bash hack/build-apiserver.sh operator-controller@v1.2.0 catalogd@v1.2.0 >/dev/null
	@bash hack/build-apiserver.sh imagecopy cosign olareg >/dev/null

lint:
	@out=$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go')); \
	  if [ -n "$$out" ]; then echo "gofmt needed:"; echo "$$out"; exit 1; fi
	$(GO) vet $(PKGS)

test-fast:
	$(GO) test -race -short -count=1 $(PKGS)

# test-slow ends with a summary line counting skipped tests, and lists each with its reason.
test-slow:
	@GO=$(GO) bash hack/test-slow.sh $(PKGS)

# oracle: the real OLM v0 and OLM v1 against opack, every case (test-slow runs a sample of each):
# TestE2EUpgradesOracle, `opack catalog upgrades` on testdata/upgrades-oracle (observed.tsv);
# TestE2ECRDCasesOLM, every row of testdata/crd-upgrade/CASES.tsv (columns olm-v0, olm-v1, OLM-VERDICTS.json);
# hack/crdify-agreement, opack's OLM v1 claims against crdify as operator-controller configures it on every
# changed CRD of the corpus catalogs' upgrade edges (internal/crd/agreement/testdata/crdify-verdicts.jsonl;
# OPACK_AGREEMENT_CATALOGS="NAME=KIND:DIR ..." measures more catalogs, docs/accuracy.md).
# Each fails when what it recorded is stale; OPACK_ORACLE_RECORD=1 make oracle records what OLM did.
AGREEMENT_CORPUS := fbc/certified-operators-v4.14-partial=fbc:../shared/corpus/fbc/certified-operators-v4.14-partial \
	packagemanifests=bundles:../shared/corpus/packagemanifests certified-operators=bundles:../shared/corpus/certified-operators
oracle: test-deps
	OPACK_ORACLE=all $(GO) test -count=1 -timeout 90m -v -run '^TestE2EUpgradesOracle$$' ./cmd/opack
	OPACK_ORACLE=all $(GO) test -count=1 -timeout 60m -v -run '^TestE2ECRDCasesOLM$$' ./cmd/opack
	$(GO) run ./hack/crdify-agreement $(if $(OPACK_ORACLE_RECORD),-record,-check) internal/crd/agreement/testdata/crdify-verdicts.jsonl $(AGREEMENT_CORPUS)
	$(if $(OPACK_AGREEMENT_CATALOGS),$(GO) run ./hack/crdify-agreement $(OPACK_AGREEMENT_CATALOGS))

demo: build
	@bash hack/demo.sh $(BIN)

bench:
	@bash hack/bench.sh

fuzz:
	@bash hack/fuzz.sh $(FUZZTIME)

clean:
	rm -rf bin _output
