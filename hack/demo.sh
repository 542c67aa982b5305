#!/usr/bin/env bash
# make demo: runs the release pipeline on the operator-sdk go/v4 sample shipped in testdata/, offline:
# opack init, opack build (bundle, CRD upgrade check, images into OCI layouts, catalog, deploy
# manifests), an unchanged rebuild and opack check, then lists what the build produced.
# The sample is copied to _output/demo first (wiped on each run); testdata/ is never modified.
# Usage: hack/demo.sh path/to/opack
set -euo pipefail
cd "$(dirname "$0")/.."
opack="$(cd "$(dirname "${1:-bin/opack}")" && pwd)/$(basename "${1:-bin/opack}")"
sample=testdata/project/memcached-operator
work=_output/demo/memcached-operator

rm -rf "$work"
mkdir -p "$work"
cp -R "$sample/PROJECT" "$sample/config" "$work/"
cd "$work"

echo "== opack init --version 0.0.1 --bundle-image ... --catalog-image ...   (in $work)"
"$opack" init --version 0.0.1 \
  --bundle-image quay.io/example/memcached-operator-bundle \
  --catalog-image quay.io/example/memcached-operator-catalog
echo
echo "== opack build   (offline: images go to OCI layouts under _output/images)"
"$opack" build 2>/dev/null
echo
echo "== opack build   (again: unchanged inputs write nothing)"
"$opack" build 2>/dev/null | tail -n 1
echo
echo "== opack check   (CI gate: exit 0 = valid, safe and up to date)"
"$opack" check 2>/dev/null
echo
echo "produced in $(pwd):"
find opack.yaml bundle.Dockerfile catalog-template.yaml bundle catalog deploy -type f | sort | sed 's|^|  |'
for layout in _output/images/*/; do
  echo "  ${layout%/} (OCI layout: $(grep -o '"org.opencontainers.image.ref.name": *"[^"]*"' "$layout/index.json" | sed 's/.*: *"//; s/"$//' | paste -sd, -))"
done
