#!/usr/bin/env bash
# npm test: static checks and every test against a private stack (its own ports and data, nothing shared with dev).
set -euo pipefail
cd "$(dirname "$0")/.."
started=$SECONDS
source scripts/lib.sh
ensure_node_modules
ensure_temporal_cli
ensure_versitygw
ensure_chromium

# The static checks run beside Jest at a lower priority: they take the CPU the tests leave idle while they wait (the
# stack's start-up, HTTP, Temporal, timers) and yield it whenever a test needs it. Their output follows Jest's.
static_log="$(mktemp)"
(
  failed=0
  for check in "tsc --noEmit -p ." "eslint . --max-warnings 0" "prettier --check . --log-level warn"; do
    echo "== $check"
    # shellcheck disable=SC2086 # each check is a command line
    nice -n 10 $check || failed=1
  done
  echo "static checks done after $((SECONDS - started)) s"
  exit "$failed"
) >"$static_log" 2>&1 &
static_pid=$!

export HOTEL_PMS_TEST_RUN="$$"
results="$(mktemp)"
gates="${TMPDIR:-/tmp}/hotel-pms-gates-$HOTEL_PMS_TEST_RUN.txt"
rm -f "$gates"
status=0
jest --json --outputFile="$results" "$@" || status=$?
jest_done=$((SECONDS - started))
if [ -s "$gates" ]; then echo; sort "$gates"; rm -f "$gates"; fi
# A skipped or todo test fails the run: it would otherwise leave it green with a check unrun.
if [ -s "$results" ]; then
  node -e '
    const r = JSON.parse(require("node:fs").readFileSync(process.argv[1], "utf8"));
    // Time per suite, slowest first: where the minutes of the run go.
    const root = process.cwd() + "/";
    const suites = r.testResults.map((s) => [(s.endTime - s.startTime) / 1000, s.name.replace(root, "")]);
    console.log("\nTime per suite (s):");
    for (const [seconds, name] of suites.sort((a, b) => b[0] - a[0])) console.log(`${seconds.toFixed(1).padStart(7)}  ${name}`);
    const skipped = r.numPendingTests + r.numTodoTests;
    console.log(`\n${r.numPassedTests} passed, ${r.numFailedTests} failed${skipped ? `, ${skipped} skipped` : ""}`);
    process.exit(skipped > 0 ? 1 : 0);
  ' "$results" || { [ "$status" -ne 0 ] || status=1; }
fi
rm -f "$results"
echo
wait "$static_pid" || status=1
cat "$static_log"
rm -f "$static_log"
echo "Jest done after ${jest_done} s; total wall time: $((SECONDS - started)) s"
exit "$status"
