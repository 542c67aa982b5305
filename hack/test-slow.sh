#!/usr/bin/env bash
# Runs the corpus-scale and end-to-end tests (no -race) and ends with one summary line counting the
# passed, skipped and failed tests, followed by each skipped test and why, so a skip is visible
# without -v (a missing ../shared corpus, a missing docker-registry...).
set -uo pipefail
GO=${GO:-go}
log=$(mktemp)
trap 'rm -f "$log"' EXIT
$GO test -v -count=1 -timeout 30m -run '^Test(Corpus|E2E)' "${@:-./...}" >"$log" 2>&1
rc=$?
# Package lines as go test prints them without -v; the whole log when something failed.
if [ $rc -ne 0 ]; then cat "$log"; else grep -E '^(ok|FAIL|\?)[[:space:]]' "$log"; fi
passed=$(grep -cE '^--- PASS' "$log")
failed=$(grep -cE '^--- FAIL' "$log")
skipped=$(grep -cE '^--- SKIP' "$log")
# Each failed test's own lines again, last, where a log's tail shows them: "=== RUN/CONT/NAME" opens a
# test's lines in -v output, the next "=== " line closes them.
if [ "$failed" -gt 0 ]; then
	echo "test-slow: the lines of each failed test:"
	awk '/^[[:space:]]*--- FAIL: / {print $3}' "$log" | sort -u | while read -r name; do
		awk -v n="$name" '
			/^=== (RUN|CONT|NAME|PAUSE)/ {on = ($3 == n); if (on) print; next}
			/^[[:space:]]*--- / {on = 0}
			on' "$log" | tail -n 40
	done
fi
echo "test-slow: $passed passed, $skipped skipped, $failed failed"
# Each skip: "--- SKIP: TestX (0.00s)" followed by the reason line "    file_test.go:NN: reason".
awk '/^--- SKIP/ {name=$3; getline; sub(/^[[:space:]]+/, ""); print "  skipped " name ": " $0}' "$log"
exit $rc
