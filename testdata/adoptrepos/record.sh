#!/usr/bin/env bash
# record.sh <operator-sdk> <kustomize> <name>...: runs each trimmed repository's own Makefile target
# (the make arguments in <name>/record.make, one make run per line, e.g. `-o manifests -o kustomize
# -o operator-sdk bundle`: prerequisites that build tools or regenerate config/ from the full source
# are taken as done) in a throw-away copy, with OPERATOR_SDK and KUSTOMIZE pointing at copies of
# operator-sdk v1.42.3 and kustomize v5.6.0 (a Makefile may delete or replace its tools), and keeps in <name>/expected/ what it wrote: config/manifests/, the bundle folders and
# Dockerfiles listed in <name>/record.outputs (default: bundle bundle.Dockerfile), and make's output.
# operator-sdk's Go loader needs the module's dependencies: this runs with the module proxy
# reachable (GOFLAGS=-mod=mod); the tests that compare with it run offline. Both tools are also first
# on PATH, for recipes that name them without a variable.
set -euo pipefail
sdk=$(realpath "$1") kust=$(realpath "$2"); shift 2
here=$(cd "$(dirname "$0")" && pwd)
for name in "$@"; do
  src=$here/$name
  work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
  cp -r "$src/input" "$work/repo"
  mkdir "$work/bin" && cp "$sdk" "$work/bin/operator-sdk" && cp "$kust" "$work/bin/kustomize"
  while IFS= read -r args; do
    # shellcheck disable=SC2086
    (cd "$work/repo" && PATH="$work/bin:$PATH" GOFLAGS=-mod=mod make OPERATOR_SDK="$work/bin/operator-sdk" KUSTOMIZE="$work/bin/kustomize" $args) >> "$work/make.out" 2>&1 \
      || { cat "$work/make.out"; exit 1; }
  done < "$src/record.make"
  rm -rf "$src/expected"; mkdir -p "$src/expected/config"
  cp -r "$work/repo/config/manifests" "$src/expected/config/"
  for out in $(cat "$src/record.outputs" 2>/dev/null || echo bundle bundle.Dockerfile); do
    mkdir -p "$src/expected/$(dirname "$out")"
    cp -r "$work/repo/$out" "$src/expected/$out"
  done
  sed "s|$work/bin/||g; s|$work/repo|.|g" "$work/make.out" > "$src/expected/make.out"
  rm -rf "$work"; trap - EXIT
  echo "recorded $name"
done
