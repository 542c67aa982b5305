#!/usr/bin/env bash
# make fuzz [FUZZTIME=10m]: runs every fuzz target for FUZZTIME. A crasher is written by Go to
# the package's testdata/fuzz/<Target>/ and so becomes a regression test of `make test`.
set -euo pipefail
cd "$(dirname "$0")/.."
fuzztime="${1:-10m}"
status=0
while IFS=: read -r file target; do
  pkg="./$(dirname "$file")"
  echo "== $pkg $target ($fuzztime)"
  go test -run '^$' -fuzz "^${target}\$" -fuzztime "$fuzztime" -fuzzminimizetime 10s "$pkg" || status=1
done < <(grep -rEo --include='*_test.go' '^func (Fuzz[A-Za-z0-9_]+)' internal cmd 2>/dev/null | sed 's/func //' | sort)
exit $status
