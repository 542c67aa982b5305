#!/usr/bin/env bash
# Whole-process figures of the performance issue (called by hack/bench.sh after `make build`; can be
# run alone). Each row is the fastest of 3 runs of hack/proctime, with the upstream anchor the issue
# measured on a 2-core machine, the target, and wall and CPU time as multiples of the decode floor:
# hack/decodefloor run the same way over the same files (read, split and decode every document once
# into maps with go.yaml.in/yaml/v2 on all cores, nothing else; BenchmarkDecodeFloor in
# internal/manifest compares the decoders in memory).
#
# Upstream side by side in the same run: opm v1.73.0 (built, see build_opm), operator-sdk v1.42.3
# (OPERATOR_SDK=path, else operator-sdk on PATH; its rows are skipped with a message without it) and
# kustomize (KUSTOMIZE="kustomize build", default "kubectl kustomize").
#
# SYNTH_MAX=n caps the synthetic catalogs (default 10000); RUNS=n sets the runs per row (default 3);
# REPETITION=dir adds the rows of a corpus with realistic repetition (see 1b);
# OPACK=path picks the binary (default bin/opack); SYNTH_CACHE=dir keeps the synthetic catalogs
# there for the next run (hack/synthgen -cache; 10,000 bundles take minutes to write).
set -euo pipefail
cd "$(dirname "$0")/.."
opack="${OPACK:-bin/opack}"
[ -x "$opack" ] || make -s build >/dev/null
opack=$(realpath "$opack")
corpus=../shared/corpus
work=$(mktemp -d "${TMPDIR:-/tmp}/opack-bench-process.XXXXXX")
trap 'rm -rf "$work"' EXIT
go build -o "$work/proctime" ./hack/proctime
go build -o "$work/synthgen" ./hack/synthgen
go build -o "$work/decodefloor" ./hack/decodefloor

# floor DIR...: "WALL CPU" seconds of hack/decodefloor over DIR (fastest of 3 runs).
floor() {
  "$work/proctime" -runs "${RUNS:-3}" -label floor -- "$work/decodefloor" "$@" | awk -F'|' '{gsub(/[ s]/, "", $3); gsub(/[ s]/, "", $4); print $3, $4}'
}

# wall LINE: the wall seconds of a row's line.
wall() { echo "$1" | awk -F'|' '{gsub(/[ s]/, "", $3); print $3}'; }

# rss LINE: the peak RSS in MB of a row's line.
rss() { echo "$1" | awk -F'|' '{gsub(/[ MB]/, "", $5); print $5}'; }

# ratio NAME A B: "NAME: A / B = R×" for two wall times in seconds.
ratio() { awk -v n="$1" -v a="$2" -v b="$3" 'BEGIN { printf "%s: %.3f s / %.3f s = %.2f×\n", n, a, b, a / b }'; }

sdk="${OPERATOR_SDK:-$(command -v operator-sdk || true)}"
kustomize_build="${KUSTOMIZE:-kubectl kustomize}"
ratios=()

# row LABEL ANCHOR TARGET "FLOOR_WALL FLOOR_CPU" [proctime options] -- COMMAND...
row() {
  local label=$1 anchor=$2 target=$3 fl=$4
  shift 4
  local line
  line=$("$work/proctime" -runs "${RUNS:-3}" -label "$label" "$@")
  local mult="–"
  if [ -n "$fl" ]; then
    mult=$(echo "$line" | awk -F'|' -v fl="$fl" '{gsub(/[ s]/, "", $3); gsub(/[ s]/, "", $4); split(fl, f, " ");
      printf "%.1f× wall, %.1f× cpu (floor %.2f s wall, %.2f s cpu)", $3 / f[1], $4 / f[2], f[1], f[2] }')
  fi
  echo "$line $anchor | $target | $mult |"
}

# opm v1.73.0 for the side-by-side rows: OPM=path, else built from operator-registry's module (module
# proxy) in hack/tools/opm when that tools module exists, else in a throwaway module here. Never linked
# into opack. Building it takes minutes; "|| true" keeps the other rows when it cannot be built.
build_opm() {
  if [ -n "${OPM:-}" ]; then
    if [ -x "$OPM" ]; then echo "$OPM"; else echo "OPM=$OPM is not an executable: opm rows skipped" >&2; return 1; fi
    return
  fi
  local dir=hack/tools/opm
  if [ ! -f "$dir/go.mod" ]; then
    dir="$work/opm-module"
    mkdir -p "$dir"
    printf 'module opack.bench/opm\n\ngo 1.26\n' >"$dir/go.mod"
    printf '//go:build tools\n\npackage tools\n\nimport _ "github.com/operator-framework/operator-registry/cmd/opm"\n' >"$dir/tools.go"
    (cd "$dir" && go get github.com/operator-framework/operator-registry@v1.73.0 >/dev/null 2>&1 && go mod tidy >/dev/null 2>&1)
  fi
  (cd "$dir" && CGO_ENABLED=0 go build -tags containers_image_openpgp -o "$work/opm" github.com/operator-framework/operator-registry/cmd/opm) >&2 &&
    echo "$work/opm"
}
opm=$(build_opm || true)

echo "| figure | wall | cpu | peak RSS | exit | upstream anchor | target | vs decode floor |"
echo "|---|---|---|---|---|---|---|---|"

# bundle_rows LABEL ANCHOR TARGET EVERY BUNDLE_DIR...: opack validate bundle on all the bundles in one
# call beside the decode floor of the same files, and operator-sdk bundle validate on every EVERY-th
# bundle (it validates one bundle per process), projected to all of them.
bundle_rows() {
  local label=$1 anchor=$2 target=$3 every=$4
  shift 4
  local bundles=("$@") fl line
  fl=$(floor "${bundles[@]}")
  line=$(row "validate bundle: ${#bundles[@]} $label, one call" "$anchor" "$target" "$fl" -- "$opack" validate bundle "${bundles[@]}")
  echo "$line"
  ratios+=("$(ratio "opack validate bundle / decode floor (${#bundles[@]} $label)" "$(wall "$line")" "${fl%% *}")")
  if [ -z "$sdk" ]; then
    echo "(operator-sdk rows skipped: set OPERATOR_SDK=path to operator-sdk v1.42.3)" >&2
    return
  fi
  local some=() i sline projected
  for i in "${!bundles[@]}"; do if [ $((i % every)) -eq 0 ]; then some+=("${bundles[$i]}"); fi; done
  sline=$("$work/proctime" -runs 1 -label "operator-sdk bundle validate: ${#some[@]} sample bundles of the $label, one process each" \
    -- sh -c 'sdk=$1; shift; for d in "$@"; do "$sdk" bundle validate "$d" >/dev/null 2>&1 || true; done' sh "$sdk" "${some[@]}")
  echo "$sline – | – | – |"
  projected=$(awk -v w="$(wall "$sline")" -v n="${#some[@]}" -v all="${#bundles[@]}" 'BEGIN { printf "%.3f", w / n * all }')
  ratios+=("$(ratio "operator-sdk projected to the ${#bundles[@]} $label / opack" "$projected" "$(wall "$line")")")
}

# 1. The 605 bundles of the certified-operators corpus validated in one call.
if [ -d "$corpus/certified-operators" ]; then
  bundles=()
  for d in "$corpus"/certified-operators/*/*/; do [ -d "$d/manifests" ] && bundles+=("$d"); done
  bundle_rows "corpus bundles" "operator-sdk one bundle at a time: 0.14–0.20 s each, ≈ 2 min" "≥ 25× operator-sdk, ≤ 1× floor" 30 "${bundles[@]}"
fi

# 1b. A corpus with realistic repetition: every release of a few real operators, as an operator
# repository holds them (REPETITION=dir of <operator>/<version>/manifests, e.g. the operators/ folder of
# redhat-openshift-ecosystem/community-operators-prod for a few operators; not in ../shared).
if [ -n "${REPETITION:-}" ]; then
  bundles=()
  for d in "$REPETITION"/*/*/; do [ -d "$d/manifests" ] && bundles+=("$d"); done
  bundle_rows "bundles of every release of $(ls "$REPETITION" | wc -l) operators" "operator-sdk one bundle at a time" "≥ 30× operator-sdk" 10 "${bundles[@]}"
fi

# 2. certified-operators-v4.22 catalog validate.
fbc="$corpus/fbc/certified-operators-v4.22"
if [ -d "$fbc" ]; then
  fl=$(floor "$fbc")
  row "catalog validate certified-operators-v4.22" "opm validate: 2.2 s, 100 MB" "≤ 0.45 s, ≤ 40 MB" "$fl" \
    -- "$opack" catalog validate "$fbc"
  row "catalog validate certified-operators-v4.22 --checks opm" "opm validate: 2.2 s, 100 MB" "≤ 0.45 s, ≤ 40 MB" "$fl" \
    -- "$opack" catalog validate --checks opm "$fbc"
fi

# 2b. Catalogs side by side with opm v1.73.0 in the same run: the one with embedded bundle objects
# (CRD safety on every edge) and certified-operators-v4.22 (plain references).
for name in certified-operators-v4.14-partial certified-operators-v4.22; do
  fbc="$corpus/fbc/$name"
  [ -d "$fbc" ] || continue
  oline=""
  if [ -n "$opm" ]; then
    oline=$(row "opm validate $name (v1.73.0, this run)" "–" "–" "" -- "$opm" validate "$fbc")
    echo "$oline"
  fi
  line=$(row "catalog validate $name" "opm validate row above" "≥ 5× faster, ≤ 30% RSS (v4.14); ≥ 10×, ≤ 50% (v4.22)" "" \
    -- "$opack" catalog validate "$fbc")
  echo "$line"
  if [ -n "$oline" ]; then
    ratios+=("$(ratio "opm / opack catalog validate $name (speed-up)" "$(wall "$oline")" "$(wall "$line")")")
    ratios+=("$(awk -v n="$name" -v a="$(rss "$line")" -v b="$(rss "$oline")" \
      'BEGIN { printf "opack / opm peak RSS, %s: %.1f MB / %.1f MB = %.0f%%\n", n, a, b, 100 * a / b }')")
  fi
done

# 3. generate bundle on the go/v4 sample, kustomize included.
sample=testdata/operator-sdk/memcached-operator
if [ -d "$sample/config" ]; then
  cp -r "$sample" "$work/sample"
  row "generate bundle: go/v4 sample incl. kustomize" "kustomize build piped to operator-sdk generate bundle: ≈ 0.4 s" "≤ 0.2 s" "" \
    -- sh -c "cd '$work/sample' && exec '$opack' generate bundle -q --version 0.0.1 --package memcached-operator"
fi

# 3b. generate bundle beside `kustomize build config/manifests | operator-sdk generate bundle` (a make
# bundle's second step: both start from the same config/manifests, base CSV included) on the go/v4
# sample and on a real repository (kernel-module-management: 5 CRDs, webhooks; testdata/realrepos).
gen_side_by_side() { # NAME DIR OPERATOR-SDK-FLAGS
  local name=$1 dir=$2 flags=$3
  local o u
  o=$(row "generate bundle, $name: opack, no kustomize-manifests step" "–" "≤ 0.5× the row below" "" \
    -- sh -c "cd '$dir' && exec '$opack' generate bundle --kustomize-manifests=false --kustomize-dir config/manifests $flags")
  echo "$o"
  [ -n "$sdk" ] || return 0
  u=$(row "generate bundle, $name: $kustomize_build piped to operator-sdk generate bundle" "–" "–" "" \
    -- sh -c "cd '$dir' && $kustomize_build config/manifests | '$sdk' generate bundle $flags >/dev/null 2>&1")
  echo "$u"
  ratios+=("$(ratio "opack / upstream generate bundle, $name" "$(wall "$o")" "$(wall "$u")")")
}
if [ -d "$sample/config" ]; then
  cp -r "$sample" "$work/gen-sample"
  gen_side_by_side "go/v4 sample" "$work/gen-sample" "-q --overwrite --version 0.0.1 --package memcached-operator"
fi
kmm=testdata/realrepos/kernel-module-management
if [ -d "$kmm/input" ]; then
  cp -r "$kmm/input" "$work/kmm"
  cp -r "$kmm/expected/config/manifests/." "$work/kmm/config/manifests/" # the base CSV of its first step
  gen_side_by_side "kernel-module-management" "$work/kmm" "$(cat "$kmm/generate.args")"
fi

# 3c. The CI gate on a real adopted repository with Go API types, a file-based catalog and OLM v0 and
# v1 manifests (testdata/adoptrepos/lvm-operator: opack init, then opack build): opack check cold
# (--no-cache) and on an unchanged tree, beside the gate it replaces: operator-sdk generate kustomize
# manifests, kustomize build | operator-sdk generate bundle, operator-sdk bundle validate, opm
# validate. And make bundle's pipeline on a real Go repository (kernel-module-management): opack
# generate bundle (its kustomize-manifests step included) beside operator-sdk's two steps.
lvm=testdata/adoptrepos/lvm-operator
if [ -d "$lvm/input" ]; then
  cp -r "$lvm/input" "$work/lvm"
  (cd "$work/lvm" && "$opack" init --version 4.21.0 >/dev/null 2>&1 && "$opack" build --prune >/dev/null 2>&1 && "$opack" check >/dev/null 2>&1) || echo "lvm-operator: adoption failed" >&2
  c=$(row "check, lvm-operator: cold (--no-cache)" "–" "≤ 0.4× the gate below" "" -- sh -c "cd '$work/lvm' && exec '$opack' check --no-cache -q")
  echo "$c"
  w=$(row "check, lvm-operator: unchanged tree" "–" "≤ 150 ms" "" -- sh -c "cd '$work/lvm' && exec '$opack' check -q")
  echo "$w"
  if [ -n "$sdk" ] && [ -n "$opm" ]; then
    cp -r "$lvm/input" "$work/lvm-sdk"
    g=$(row "the gate, lvm-operator: operator-sdk kustomize manifests + generate bundle + bundle validate, opm validate" "–" "–" "" \
      -- sh -c "cd '$work/lvm-sdk' && '$sdk' generate kustomize manifests -q --interactive=false --package lvms-operator >/dev/null 2>&1; $kustomize_build config/manifests | '$sdk' generate bundle -q --overwrite --version 4.21.0 --package lvms-operator >/dev/null 2>&1; '$sdk' bundle validate ./bundle >/dev/null 2>&1; '$opm' validate catalog >/dev/null 2>&1")
    echo "$g"
    ratios+=("$(ratio "opack check (cold) / the gate, lvm-operator" "$(wall "$c")" "$(wall "$g")")")
  fi
fi
if [ -d "$kmm/input" ] && [ -n "$sdk" ]; then
  cp -r "$kmm/input" "$work/kmm-full"
  cp -r "$kmm/input" "$work/kmm-sdk"
  o=$(row "make bundle, kernel-module-management: opack generate bundle (kustomize-manifests step included)" "–" "≤ 0.25× the row below" "" \
    -- sh -c "cd '$work/kmm-full' && exec '$opack' generate bundle --kustomize-dir config/manifests $(cat "$kmm/generate.args")")
  echo "$o"
  u=$(row "make bundle, kernel-module-management: operator-sdk generate kustomize manifests, then $kustomize_build piped to generate bundle" "–" "–" "" \
    -- sh -c "cd '$work/kmm-sdk' && '$sdk' generate kustomize manifests $(cat "$kmm/kustomize-manifests.args") >/dev/null 2>&1; $kustomize_build config/manifests | '$sdk' generate bundle $(cat "$kmm/generate.args") >/dev/null 2>&1")
  echo "$u"
  ratios+=("$(ratio "opack / operator-sdk make bundle, kernel-module-management" "$(wall "$o")" "$(wall "$u")")")
fi

# synth N: the folder of the synthetic catalog of N bundles (kept in SYNTH_CACHE when set).
synth() { "$work/synthgen" -bundles "$1" -cache "${SYNTH_CACHE:-$work/synth}"; }

# 4. Synthetic catalogs: validate (incl. graph-aware CRD safety) at 100 / 1,000 / 10,000 bundles.
max=${SYNTH_MAX:-10000}
for n in 100 1000 10000; do
  [ "$n" -le "$max" ] || continue
  s=$(synth "$n")
  row "catalog validate: synthetic, $n bundles" "–" "time per bundle flat from 100 to 10,000" "" \
    -- "$opack" catalog validate "$s/catalog"
  [ -n "${SYNTH_CACHE:-}" ] || [ "$n" -eq 1000 ] || rm -rf "$s"
done

# 5. Adding one bundle to a rendered 1,000-bundle catalog (render cache) vs the full render.
if [ "$max" -ge 1000 ]; then
  s=$(synth 1000)
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

# 6. Catalogs whose cost their shape decides (SECURITY.md, budgets): 3,000 bundles each covering all
# others with skipRange ">=0.0.0", and a 100,000-entry replaces chain; HEAD adds one bundle to BASE.
for shape in skiprange-all:3000:"≤ 2 s, ≤ 200 MB" replaces-chain:100000:"≤ 5 s"; do
  IFS=: read -r name n target <<<"$shape"
  "$work/synthgen" -shape "$name" -bundles "$((n - 1))" "$work/shape-$name-base"
  "$work/synthgen" -shape "$name" -bundles "$n" "$work/shape-$name-head"
  for verb in validate upgrades; do
    row "catalog $verb: $name, $n bundles" "–" "$target" "" -- "$opack" catalog "$verb" "$work/shape-$name-head"
  done
  row "catalog diff: $name, $((n - 1)) → $n bundles" "–" "$target" "" -- "$opack" catalog diff "$work/shape-$name-base" "$work/shape-$name-head"
  rm -rf "$work/shape-$name-base" "$work/shape-$name-head"
done

echo
echo "side by side, same run (wall time):"
for r in "${ratios[@]}"; do echo "- $r"; done
