#!/usr/bin/env bash
# Builds k8s.io/apiextensions-apiserver's own main (a real CRD API server) from the separate tools module
# hack/tools/apiserver -- never linked into opack -- into a cache folder outside the repository, and prints
# the binary's path. It rebuilds only when the tools module's go.mod/go.sum or the Go toolchain change.
# The cache is $OPACK_TOOLS_CACHE, else $XDG_CACHE_HOME/opack-tools, else ~/.cache/opack-tools.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
mod="$root/hack/tools/apiserver"
cache="${OPACK_TOOLS_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/opack-tools}"
key=$( (cat "$mod/go.mod" "$mod/go.sum"; go env GOVERSION GOOS GOARCH) | sha256sum | cut -c1-16)
version=$(grep -oE "k8s.io/apiextensions-apiserver v[^ ]+" "$mod/go.mod" | head -1 | cut -d" " -f2)
bin="$cache/apiextensions-apiserver-$version-$key"
if [ ! -x "$bin" ]; then
  mkdir -p "$cache"
  echo "building k8s.io/apiextensions-apiserver $version (hack/tools/apiserver) into $cache" >&2
  tmp="$bin.tmp.$$"
  trap 'rm -f "$tmp"' EXIT
  (cd "$mod" && GOWORK=off CGO_ENABLED=0 go build -trimpath -o "$tmp" k8s.io/apiextensions-apiserver)
  mv -f "$tmp" "$bin"
fi
echo "$bin"
