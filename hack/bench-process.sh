#!/usr/bin/env bash
# Whole-process figures of the performance issue (called by hack/bench.sh after `make build`; can be
# run alone). Each row is the fastest of 3 runs of hack/proctime, with the upstream anchor the issue
# measured on a 2-core machine, the target, and the wall time as a multiple of the decode floor:
# decoding the same YAML/JSON once, in memory, on all cores, with the fastest library decoder
# (BenchmarkDecodeFloor in internal/manifest, read from _output/bench/bench.txt or run here).
#
# SYNTH_MAX=n caps the synthetic catalogs (default 10000); OPACK=path picks the binary (bin/opack).
set -euo pipefail
cd "$(dirname "$0")/.."
opack="${OPACK:-bin/opack}"
[ -x "$opack" ] || make -s build >/dev/null
corpus=../shared/corpus
bench=_output/bench
mkdir -p "$bench"
work=$(mktemp -d "${TMPDIR:-/tmp}/opack-bench-process.XXXXXX")
trap 'rm -rf "$work"' EXIT
go build -o "$work/proctime" ./hack/proctime
go build -o "$work/synthgen" ./hack/synthgen

# floor CORPUS: seconds of the fastest library decoder over ../shared/corpus/CORPUS (empty if unknown).
floor() {
  local txt="$bench/bench.txt"
  if ! grep -q "^BenchmarkDecodeFloor/corpus=$1/" "$txt" 2>/dev/null; then
    txt="$bench/floor.txt"
    [ -s "$txt" ] || go test -run '^$' -bench '^BenchmarkDecodeFloor$' -benchtime 3x ./internal/manifest >"$txt" 2>/dev/null || true
  fi
  awk -v c="corpus=$1/" '$1 ~ "^BenchmarkDecodeFloor/" c && $1 !~ /decoder=manifest/ {
      if (min == "" || $3 < min) min = $3 } END { if (min != "") printf "%.3f", min / 1e9 }' "$txt"
}

# row LABEL ANCHOR TARGET FLOOR_SECONDS [proctime options] -- COMMAND...
row() {
  local label=$1 anchor=$2 target=$3 fl=$4
  shift 4
  local line wall
  line=$("$work/proctime" -label "$label" "$@")
  wall=$(echo "$line" | awk -F'|' '{gsub(/[ s]/, "", $3); print $3}')
  local mult="–"
  if [ -n "$fl" ]; then mult=$(awk -v w="$wall" -v f="$fl" 'BEGIN { printf "%.1f× (floor %.2f s)", w / f, f }'); fi
  echo "$line $anchor | $target | $mult |"
}

echo "| figure | wall | cpu | peak RSS | exit | upstream anchor | target | wall / decode floor |"
echo "|---|---|---|---|---|---|---|---|"

# 1. The 605 bundles of the certified-operators corpus validated in one call.
if [ -d "$corpus/certified-operators" ]; then
  bundles=()
  for d in "$corpus"/certified-operators/*/*/; do [ -d "$d/manifests" ] && bundles+=("$d"); done
  row "validate bundle: ${#bundles[@]} corpus bundles, one call" \
    "operator-sdk one bundle at a time: 0.14–0.20 s each, ≈ 2 min" "≤ 6 s, ≤ 2× floor" "$(floor certified-operators)" \
    -- "$opack" validate bundle "${bundles[@]}"
fi

# 2. certified-operators-v4.22 catalog validate.
fbc="$corpus/fbc/certified-operators-v4.22"
if [ -d "$fbc" ]; then
  row "catalog validate certified-operators-v4.22" "opm validate: 2.2 s, 100 MB" "≤ 0.45 s, ≤ 40 MB" "$(floor fbc)" \
    -- "$opack" catalog validate "$fbc"
  row "catalog validate certified-operators-v4.22 --checks opm" "opm validate: 2.2 s, 100 MB" "≤ 0.45 s, ≤ 40 MB" "$(floor fbc)" \
    -- "$opack" catalog validate --checks opm "$fbc"
fi

# 3. generate bundle on the go/v4 sample, kustomize included.
sample=testdata/operator-sdk/memcached-operator
if [ -d "$sample/config" ]; then
  cp -r "$sample" "$work/sample"
  row "generate bundle: go/v4 sample incl. kustomize" "kustomize build | operator-sdk generate bundle: ≈ 0.4 s" "≤ 0.2 s" "" \
    -- sh -c "cd '$work/sample' && exec '$PWD/$opack' generate bundle -q --version 0.0.1 --package memcached-operator"
fi

# 4. Synthetic catalogs: validate (incl. graph-aware CRD safety) at 100 / 1,000 / 10,000 bundles.
max=${SYNTH_MAX:-10000}
for n in 100 1000 10000; do
  [ "$n" -le "$max" ] || continue
  "$work/synthgen" -bundles "$n" "$work/synth-$n"
  row "catalog validate: synthetic, $n bundles" "–" "time per bundle flat from 100 to 10,000" "" \
    -- "$opack" catalog validate "$work/synth-$n/catalog"
  [ "$n" -eq 10000 ] && continue
  rm -rf "$work/synth-$n"
done

# 5. Adding one bundle to a rendered 1,000-bundle catalog (render cache) vs the full render.
if [ "$max" -ge 1000 ]; then
  s="$work/synth-1000"
  [ -d "$s" ] || "$work/synthgen" -bundles 1000 "$s"
  mapfile -t dirs < <(find "$s/bundles" -mindepth 2 -maxdepth 2 -type d | sort)
  tpl='quay.io/synth/{{.Package}}-bundle:v{{.Version}}'
  row "catalog render: 1,000 synthetic bundles, no cache" "opm render" "–" "" \
    -- "$opack" catalog render --no-cache --image-ref-template "$tpl" "${dirs[@]}"
  cache="$work/render-cache"
  "$opack" catalog render --cache-dir "$cache" --image-ref-template "$tpl" "${dirs[@]:0:999}" >/dev/null
  (cd "$cache" && find . -type f | sort) >"$work/warm.txt"
  for i in 1 2 3; do # one new bundle each run: drop what the previous run added to the cache
    (cd "$cache" && find . -type f | sort | comm -13 "$work/warm.txt" - | xargs -r rm -f)
    row "catalog render: 999 cached + 1 new bundle (run $i)" "–" "< 5% of the full render" "" -runs 1 \
      -- "$opack" catalog render --cache-dir "$cache" --image-ref-template "$tpl" "${dirs[@]}"
  done
fi
