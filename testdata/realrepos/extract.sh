#!/usr/bin/env bash
# extract.sh <git dir> <commit> <dest> <API dirs...>: the files the bundle pipeline reads — PROJECT,
# Makefile, go.mod, go.sum, LICENSE, config/, and the non-test Go files of the API packages and of
# every package of the same module they import (transitively).
set -euo pipefail
g=$1 c=$2 dest=$3; shift 3
here=$(cd "$(dirname "$0")" && pwd)
rm -rf "$dest"; mkdir -p "$dest"
paths=(PROJECT Makefile go.mod go.sum config)
for f in LICENSE LICENSE.txt; do git --git-dir="$g" cat-file -e "$c:$f" 2>/dev/null && paths+=("$f"); done
for d in $("$here/closure.sh" "$g" "$c" "$@"); do
  for f in $(git --git-dir="$g" ls-tree --name-only "$c" "$d/" | grep '\.go$' | grep -v '_test\.go$'); do paths+=("$f"); done
done
git --git-dir="$g" archive "$c" "${paths[@]}" | tar -x -C "$dest"
