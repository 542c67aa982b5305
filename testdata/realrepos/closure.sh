#!/usr/bin/env bash
# closure.sh <git dir> <commit> <dirs...>: the same-module package dirs the given dirs import, transitively.
set -euo pipefail
g=$1 c=$2; shift 2
mod=$(git --git-dir=$g show $c:go.mod | awk '/^module/{print $2}')
declare -A seen; queue=("$@")
while ((${#queue[@]})); do
  d=${queue[0]}; queue=("${queue[@]:1}")
  [[ -n ${seen[$d]:-} ]] && continue; seen[$d]=1
  for f in $(git --git-dir=$g ls-tree --name-only $c "$d/" | grep '\.go$' | grep -v _test.go); do
    for imp in $(git --git-dir=$g show $c:$f | grep -o "\"$mod/[^\"]*\"" | tr -d '"'); do queue+=("${imp#$mod/}"); done
  done
done
printf '%s\n' "${!seen[@]}" | sort
