#!/usr/bin/env bash
# make bench: runs the Go benchmarks (benchstat-compatible output in _output/bench/bench.txt),
# prints them as a table, then measures the whole-process targets of the performance issue.
# BENCH=regexp selects benchmarks, COUNT=n repeats them (for benchstat), SYNTH_MAX=n caps the
# synthetic catalog size (default 10000), SYNTH_CACHE=dir keeps the synthetic catalogs there.
# Last, it replays the CRD changes of the certified-operators corpus on the real API server (10-15 minutes;
# APISERVER_CORPUS=0 skips it).
set -euo pipefail
cd "$(dirname "$0")/.."
out=_output/bench
mkdir -p "$out"
export OPACK_BENCH_SYNTH_MAX="${SYNTH_MAX:-10000}"
export OPACK_BENCH_SYNTH_CACHE="${SYNTH_CACHE:-}" # keep the synthetic catalogs between benchmarks and runs
echo "machine: $(nproc) cores, $(free -g | awk '/Mem:/{print $2}') GiB, $(go version | cut -d' ' -f3), $(uname -m)"
go test -run '^$' -bench "${BENCH:-.}" -benchmem -count "${COUNT:-1}" -timeout 90m ./... | tee "$out/bench.txt" >/dev/null
echo
echo "| benchmark | time/op | MB/s | allocs/op | B/op | peak-MB |"
echo "|---|---|---|---|---|---|"
awk '/^Benchmark/ {
  name=$1; t=""; mbs=""; al=""; by=""; pk="";
  for (i=3; i<NF; i+=2) {
    u=$(i+1); v=$i
    if (u=="ns/op") { t = (v>=1e9) ? sprintf("%.2f s", v/1e9) : (v>=1e6) ? sprintf("%.2f ms", v/1e6) : sprintf("%.1f µs", v/1e3) }
    else if (u=="MB/s") mbs=v; else if (u=="allocs/op") al=v; else if (u=="B/op") by=v; else if (u=="peak-MB") pk=v
  }
  printf "| %s | %s | %s | %s | %s | %s |\n", name, t, mbs, al, by, pk
}' "$out/bench.txt"
echo
echo "whole process (fastest of 3 runs):"
make -s build >/dev/null
bash hack/bench-process.sh || true
echo
echo "signing (opack build --push of the sample, unsigned and signed, docker-registry on 127.0.0.1):"
bash hack/bench-sign.sh || true
if [ "${APISERVER_CORPUS:-1}" != 0 ]; then
  echo
  echo "CRD changes of the certified-operators corpus on the real API server (TestAPIServerCorpusEdges):"
  bash hack/install-test-deps.sh
  OPACK_APISERVER_CORPUS=1 go test -count=1 -timeout 60m -run '^TestAPIServerCorpusEdges$' -v ./internal/crd/ | grep -E '^(--- |FAIL|ok)|changed CRDs played|API server: '
fi
