#!/usr/bin/env bash
# Builds a real API server for the end-to-end tests from a separate tools module -- never linked into opack --
# into a cache folder outside the repository, and prints the binary's path:
#   hack/build-apiserver.sh                  k8s.io/apiextensions-apiserver's own main (hack/tools/apiserver):
#                                            the CRD API server the CRD checks replay upgrades on
#   hack/build-apiserver.sh kube-apiserver   k8s.io/kubernetes/cmd/kube-apiserver (hack/tools/kube-apiserver):
#                                            the full API server `kubectl apply -k deploy/...` runs against
#   hack/build-apiserver.sh olm-operator|catalog-operator|cpb|copy-content
#                                            OLM v0's controllers, operator-lifecycle-manager's cmd/olm and
#                                            cmd/catalog, and the programs of its util image, cmd/copy-content
#                                            and util/cpb (hack/tools/olm), for the OLM lifecycle tests;
#                                            NAME@v0.26.0 from hack/tools/olm-v0.26.0, the oldest OLM v0
#                                            release opack claims
#   hack/build-apiserver.sh operator-controller|catalogd
#                                            OLM v1's controllers (hack/tools/operator-controller);
#                                            NAME@v1.2.0 from hack/tools/operator-controller-v1.2.0, the
#                                            oldest OLM v1 release the module proxy serves
#   hack/build-apiserver.sh imagecopy        a `skopeo copy` on containers/image (go.podman.io/image/v5,
#                                            hack/tools/containers-image/imagecopy) that enforces a signature
#                                            policy: Debian's skopeo is built with sigstore disabled
#   hack/build-apiserver.sh cosign           sigstore/cosign/v2's cosign (hack/tools/cosign), the verifier the
#                                            signing tests check opack's signatures and attestations with
#   hack/build-apiserver.sh olareg           olareg (hack/tools/olareg), a registry serving the OCI 1.1
#                                            referrers API
#   hack/build-apiserver.sh crdify           the verdict of OLM v1's CRD upgrade-safety preflight: crdify as
#                                            operator-controller v1.11.0 configures it (hack/tools/crdify),
#                                            for the measurement of opack's OLM v1 claims (make oracle)
# Several names build one after the other and print one path per line.
# It rebuilds only when the tools module's go.mod/go.sum or the Go toolchain change.
# The cache is $OPACK_TOOLS_CACHE, else $XDG_CACHE_HOME/opack-tools, else ~/.cache/opack-tools.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build() {
tags="" src="" olmv0=olm olmv1=operator-controller
# NAME@VERSION builds NAME from the tools module of that version (hack/tools/olm-VERSION for OLM v0,
# hack/tools/operator-controller-VERSION for OLM v1).
case "$1" in *@*) olmv0="olm-${1#*@}" olmv1="operator-controller-${1#*@}" ;; esac
case "${1%@*}" in
  apiextensions-apiserver) mod="$root/hack/tools/apiserver" name=apiextensions-apiserver
    module=k8s.io/apiextensions-apiserver pkg=k8s.io/apiextensions-apiserver ;;
  kube-apiserver) mod="$root/hack/tools/kube-apiserver" name=kube-apiserver
    module=k8s.io/kubernetes pkg=k8s.io/kubernetes/cmd/kube-apiserver ;;
  # The build tags of each project's Makefile (GO_BUILD_TAGS), static as they build it.
  olm-operator|catalog-operator|cpb|copy-content) mod="$root/hack/tools/$olmv0" name=${1%@*} tags=json1
    module=github.com/operator-framework/operator-lifecycle-manager
    case "$name" in
      olm-operator) pkg=$module/cmd/olm ;;
      catalog-operator) pkg=$module/cmd/catalog ;;
      cpb) pkg=$module/util/cpb ;;
      copy-content) pkg=$module/cmd/copy-content ;;
    esac ;;
  crdify) mod="$root/hack/tools/crdify" name=crdify src=.
    module=sigs.k8s.io/crdify pkg=github.com/opack/opack/hack/tools/crdify ;;
  operator-controller|catalogd) mod="$root/hack/tools/$olmv1" name=${1%@*} tags=containers_image_openpgp
    module=github.com/operator-framework/operator-controller pkg=$module/cmd/$name ;;
  imagecopy) mod="$root/hack/tools/containers-image" name=imagecopy tags=containers_image_openpgp src=imagecopy
    module=go.podman.io/image/v5 pkg=./imagecopy ;;
  cosign) mod="$root/hack/tools/cosign" name=cosign module=github.com/sigstore/cosign/v2 pkg=$module/cmd/cosign ;;
  olareg) mod="$root/hack/tools/olareg" name=olareg module=github.com/olareg/olareg pkg=$module/cmd/olareg ;;
  *) echo "usage: $0 [apiextensions-apiserver|kube-apiserver|olm-operator|catalog-operator|cpb|copy-content|operator-controller|catalogd|imagecopy|cosign|olareg|crdify]..." >&2
    exit 2 ;;
esac
cache="${OPACK_TOOLS_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/opack-tools}"
version=$(grep -oE "^require $module v[^ ]+|^	$module v[^ ]+" "$mod/go.mod" | head -1 | awk '{print $NF}')
ldflags=""
if [ "$module" = k8s.io/kubernetes ]; then
  # The version Kubernetes' own build stamps in (hack/lib/version.sh): without it the server reports
  # v0.0.0-master, which OLM cannot compare with a CSV's minKubeVersion.
  minor=${version#v1.}; minor=${minor%%.*}
  for p in k8s.io/component-base/version k8s.io/client-go/pkg/version; do
    ldflags="$ldflags -X $p.gitVersion=$version -X $p.gitMajor=1 -X $p.gitMinor=$minor -X $p.gitTreeState=clean"
  done
fi
# A program of the tools module's own ($src) rebuilds when its source changes too.
key=$( (cat "$mod/go.mod" "$mod/go.sum"; go env GOVERSION GOOS GOARCH; [ -z "$ldflags" ] || echo "$ldflags"; [ -z "$src" ] || cat "$mod/$src"/*.go) | sha256sum | cut -c1-16)
bin="$cache/$name-$version-$key"
if [ ! -x "$bin" ]; then
  mkdir -p "$cache"
  echo "building $pkg $version ($mod) into $cache" >&2
  tmp="$bin.tmp.$$"
  trap 'rm -f "$tmp"' EXIT
  proxy=$(go env GOPROXY)
  # A tools module may carry a file:// module proxy folder for a module the configured proxy refuses
  # (hack/tools/operator-controller/goproxy/README.md); go.sum's hashes decide whether go accepts it.
  [ ! -d "$mod/goproxy" ] || proxy="file://$mod/goproxy,$proxy"
  (cd "$mod" && GOWORK=off GOPROXY="$proxy" CGO_ENABLED=0 go build -trimpath -tags "$tags" -ldflags "$ldflags" -o "$tmp" "$pkg")
  mv -f "$tmp" "$bin"
fi
echo "$bin"
}
for n in "${@:-apiextensions-apiserver}"; do build "$n"; done
