#!/usr/bin/env bash
# npm test: static checks, then every test against a private stack (its own ports and data, nothing shared with dev).
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/lib.sh
ensure_node_modules
ensure_temporal_cli
ensure_versitygw

echo "== tsc --noEmit" && tsc --noEmit -p .
echo "== eslint" && eslint . --max-warnings 0
echo "== prettier --check" && prettier --check . --log-level warn

export HOTEL_PMS_TEST_RUN="$$"
results="$(mktemp)"
gates="${TMPDIR:-/tmp}/hotel-pms-gates-$HOTEL_PMS_TEST_RUN.txt"
rm -f "$gates"
status=0
jest --json --outputFile="$results" "$@" || status=$?
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
exit "$status"
