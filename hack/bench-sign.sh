#!/usr/bin/env bash
# What signing adds to `opack build --push` of the go/v4 sample, whole process, against Debian's
# docker-registry on 127.0.0.1 (called by hack/bench.sh; can be run alone). Each run releases a fresh
# copy of the sample to repositories of its own (nothing pushed or signed already), every step
# computed (--no-cache): unsigned, signed with an unencrypted PEM key, signed with a cosign key
# (whose scrypt decryption is a fixed cost of that format). Prints the fastest of RUNS (default 3)
# wall times of each and the overhead. BenchmarkBuildPushSign (cmd/opack) is the in-process twin.
set -euo pipefail
cd "$(dirname "$0")/.."
opack="${OPACK:-bin/opack}"
[ -x "$opack" ] || make -s build >/dev/null
opack=$(realpath "$opack")
command -v docker-registry >/dev/null || { echo "bench-sign: docker-registry is not installed (make test-deps)"; exit 0; }
work=$(mktemp -d "${TMPDIR:-/tmp}/bench-sign.XXXXXX")
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
printf 'version: 0.1\nlog: {level: error}\nstorage: {filesystem: {rootdirectory: %s/data}}\nhttp: {addr: 127.0.0.1:%s}\n' "$work" "$port" >"$work/config.yml"
docker-registry serve "$work/config.yml" >"$work/registry.log" 2>&1 &
registry=$!
trap 'kill $registry 2>/dev/null; rm -rf "$work"' EXIT
for _ in $(seq 50); do curl -fs "http://127.0.0.1:$port/v2/" >/dev/null 2>&1 && break; sleep 0.1; done
export DOCKER_CONFIG="$work/docker" COSIGN_PASSWORD=bench
mkdir -p "$DOCKER_CONFIG" "$work/keys"
go run ./hack/bench-sign-keys "$work/keys"

# release VARIANT RUN: wall seconds of one build --push of a fresh copy.
release() {
  local variant=$1 run=$2 dir="$work/$1-$2/memcached-operator"
  mkdir -p "$(dirname "$dir")"
  cp -r testdata/project/memcached-operator "$dir"
  "$opack" init "$dir" --version 0.0.1 --bundle-image "127.0.0.1:$port/$variant$run/bundle" \
    --catalog-image "127.0.0.1:$port/$variant$run/catalog" >/dev/null
  local args=(build -f "$dir/opack.yaml" --push --no-cache -q)
  if [ "$variant" != unsigned ]; then
    cp "$work/keys/$variant.pub" "$dir/cosign.pub"
    printf 'signing:\n  key: %s\n  publicKey: cosign.pub\n' "$work/keys/$variant.key" >>"$dir/opack.yaml"
    args+=(--sign)
  fi
  local start end
  start=$(date +%s%N)
  "$opack" "${args[@]}" >/dev/null
  end=$(date +%s%N)
  awk -v a="$start" -v b="$end" 'BEGIN { printf "%.3f", (b - a) / 1e9 }'
}

declare -A best
for variant in unsigned pem cosign; do
  for run in $(seq "${RUNS:-3}"); do
    t=$(release "$variant" "$run")
    if [ -z "${best[$variant]:-}" ] || awk -v t="$t" -v b="${best[$variant]}" 'BEGIN { exit !(t < b) }'; then best[$variant]=$t; fi
  done
done
echo "| opack build --push of the sample (fastest of ${RUNS:-3}) | wall | vs unsigned |"
echo "|---|---|---|"
for variant in unsigned pem cosign; do
  label=$variant
  [ "$variant" = pem ] && label="signed, PEM key"
  [ "$variant" = cosign ] && label="signed, cosign key"
  echo "| $label | ${best[$variant]} s | $(awk -v t="${best[$variant]}" -v u="${best[unsigned]}" 'BEGIN { printf "%+.1f", (t - u) * 100 / u }')% |"
done
