#!/usr/bin/env bash
# record.sh <operator-sdk> <kustomize> <name>...: records operator-sdk v1.42.3's output on each trimmed
# repository, as its Makefile's `make bundle` runs it:
#   operator-sdk generate kustomize manifests -q --interactive=false $(cat kustomize-manifests.args)
#   kustomize build $(cat kustomize.dir || echo config/manifests) | operator-sdk generate bundle $(cat generate.args)
# into <name>/expected/: config/manifests/ after the first step, the bundle folder (its --output-dir,
# default bundle/), bundle.Dockerfile and both commands' output. operator-sdk's loader needs the module's dependencies, so this runs with the
# Go module proxy reachable (it fills the module cache); opack's tests then run offline.
set -euo pipefail
sdk=$(realpath "$1") kust=$(realpath "$2"); shift 2
here=$(cd "$(dirname "$0")" && pwd)
for name in "$@"; do
  src=$here/$name
  work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
  cp -r "$src/input" "$work/repo"
  (
    cd "$work/repo"
    export GOFLAGS=-mod=mod
    # A dependency the module proxy refuses is replaced by a checkout of the same commit
    # (lines "module=folder" in <name>/record.replace; the folder is given to this script as $DEPS).
    if [ -f "$src/record.replace" ]; then
      while IFS= read -r r; do go mod edit -replace "${r%%=*}=$DEPS/${r#*=}"; done < "$src/record.replace"
    fi
    # shellcheck disable=SC2046
    "$sdk" generate kustomize manifests -q --interactive=false $(cat "$src/kustomize-manifests.args" 2>/dev/null) \
      > "$work/kustomize-manifests.out" 2>&1 || { cat "$work/kustomize-manifests.out"; exit 1; }
    [ -f "$src/kustomize-manifests-only" ] && exit 0
    "$kust" build "$(cat "$src/kustomize.dir" 2>/dev/null || echo config/manifests)" > "$work/kustomize-out.yaml"
    # shellcheck disable=SC2046
    cat "$work/kustomize-out.yaml" | "$sdk" generate bundle $(cat "$src/generate.args") > "$work/generate.out" 2>&1 || { cat "$work/generate.out"; exit 1; }
  )
  rm -rf "$src/expected"; mkdir -p "$src/expected/config"
  cp -r "$work/repo/config/manifests" "$src/expected/config/"
  cp "$work/kustomize-manifests.out" "$src/expected/"
  if [ -f "$src/kustomize-manifests-only" ]; then rm -rf "$work"; trap - EXIT; echo "recorded $name"; continue; fi
  [ -s "$work/kustomize-out.yaml" ] || exit 1
  out=$(sed -n 's/.*--output-dir[= ]\([^ ]*\).*/\1/p' "$src/generate.args"); out=${out:-bundle}
  cp -r "$work/repo/$out" "$src/expected/"
  cp "$work/repo/bundle.Dockerfile" "$work/generate.out" "$src/expected/"
  rm -rf "$work"; trap - EXIT
  echo "recorded $name"
done
