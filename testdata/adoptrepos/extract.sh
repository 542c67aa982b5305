#!/usr/bin/env bash
# extract.sh <git dir> <commit> <dest> <path>... [-- <API dir>...]: the files `make bundle` reads of
# one repository (the paths given: PROJECT, Makefile and the files it includes, LICENSE, config/,
# the committed bundle and catalogs) and, after --, the non-test Go files of the API packages and
# of every package of the same module they import (../realrepos/closure.sh), with go.mod and go.sum.
set -euo pipefail
g=$1 c=$2 dest=$3; shift 3
here=$(cd "$(dirname "$0")" && pwd)
paths=() apis=()
while (($#)); do [ "$1" = -- ] && { shift; apis=("$@"); break; }; paths+=("$1"); shift; done
if ((${#apis[@]})); then
  paths+=(go.mod go.sum)
  for d in $("$here/../realrepos/closure.sh" "$g" "$c" "${apis[@]}"); do
    for f in $(git --git-dir="$g" ls-tree --name-only "$c" "$d/" | grep '\.go$' | grep -v '_test\.go$'); do paths+=("$f"); done
  done
fi
rm -rf "$dest"; mkdir -p "$dest"
git --git-dir="$g" archive "$c" "${paths[@]}" | tar -x -C "$dest"
