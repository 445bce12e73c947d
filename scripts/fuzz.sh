#!/usr/bin/env bash
# Schema-driven fuzzing: schemathesis generates requests from the API's own OpenAPI document (/api/openapi.json),
# valid and invalid, and checks every answer: no 5xx, a documented status code, a body matching the documented schema
# and a documented content type. test/gates/fuzz.test.ts runs it in `npm test`; by hand, against `npm run dev`:
#
#   FUZZ_BASE_URL=http://localhost:3000 FUZZ_TOKEN=<access token of a hotel_admin> FUZZ_SLUG=<its hotel> scripts/fuzz.sh
#
# Required: FUZZ_BASE_URL (a running API), FUZZ_TOKEN (a signed-in hotel owner's access token; it stays out of argv
# and files), FUZZ_SLUG (that hotel: every {slug} path parameter is fixed to it, so hotel routes reach real data).
# Optional: FUZZ_MAX_EXAMPLES (per operation and phase, default 30), FUZZ_SEED (default 20261121: the same requests
# each run), FUZZ_TIME_LIMIT (seconds for the whole run, default 300), FUZZ_WORKERS (default 2), FUZZ_REPORT_DIR
# (keeps the JSON report there). Python 3.11+ is needed once, to install schemathesis into .tools/venv (reused
# afterwards; pip's own cache makes a reinstall quick).
#
# Ends with one line `fuzz: <n> generated requests, <f> failures, <e> errors ...`; exits non-zero on any failure.
set -euo pipefail
cd "$(dirname "$0")/.."

SCHEMATHESIS_VERSION=4.32.5
VENV=.tools/venv

: "${FUZZ_BASE_URL:?FUZZ_BASE_URL: the running API, e.g. http://127.0.0.1:3000}"
: "${FUZZ_TOKEN:?FUZZ_TOKEN: an access token of the hotel owner}"
: "${FUZZ_SLUG:?FUZZ_SLUG: the slug of that hotel}"
export FUZZ_TOKEN FUZZ_SLUG
max_examples="${FUZZ_MAX_EXAMPLES:-30}"
seed="${FUZZ_SEED:-20261121}"
time_limit="${FUZZ_TIME_LIMIT:-300}"
workers="${FUZZ_WORKERS:-2}"

# Exclusions, as few as possible. Log out everywhere voids every access token of the account, the fuzzer's own: once
# called, every later request is a documented 401 and proves nothing (the sessions gate covers it). Nothing else the
# fuzzer can call ends its session: it holds no refresh cookie (logout and refresh act on the cookie), password and
# invitation routes need e-mailed tokens, the owner cannot change or delete their own account (422), and uploads are
# fuzzed as multipart like any body. A route that must be left out goes here as `--exclude-path-regex '<regex>'`,
# with why, and in EXCLUDED of test/gates/fuzz.test.ts, which fails on any other operation the run leaves out.
EXCLUSIONS=(--exclude-path-regex '^/api/auth/logout-everywhere$')

# CPython before 3.13 may fail `ast.parse` when threads parse at once ("AST constructor recursion depth mismatch",
# gh-106905), and hypothesis parses the source of filter lambdas while schemathesis's workers generate requests: the
# gate then reports a tool error. So the newest interpreter the machine has is preferred (pyenv's included).
pick_python() {
  if [ -n "${PYTHON:-}" ]; then echo "$PYTHON"; return; fi
  local candidates=()
  if command -v pyenv >/dev/null 2>&1; then
    mapfile -t candidates < <(ls -d "$(pyenv root)"/versions/3.*/bin/python3 2>/dev/null | sort -rV)
  fi
  for candidate in "${candidates[@]}" python3.13 python3.12 python3; do
    if "$candidate" -c 'import sys; sys.exit(sys.version_info < (3, 11))' >/dev/null 2>&1; then
      echo "$candidate"
      return
    fi
  done
}

ensure_schemathesis() {
  local python
  python="$(pick_python)"
  if [ -z "$python" ]; then
    echo "fuzz: schemathesis needs Python 3.11+ (set PYTHON to one)" >&2
    exit 1
  fi
  local wanted
  wanted="$("$python" -c 'import sys; print(sys.version_info[:2])')"
  if [ "$("$VENV/bin/st" --version 2>/dev/null)" = "st, version $SCHEMATHESIS_VERSION" ] &&
    [ "$("$VENV/bin/python" -c 'import sys; print(sys.version_info[:2])' 2>/dev/null)" = "$wanted" ]; then
    return
  fi
  local started=$SECONDS
  echo "Installing schemathesis $SCHEMATHESIS_VERSION into $VENV (once, Python $wanted)..."
  rm -rf "$VENV"
  "$python" -m venv "$VENV"
  "$VENV/bin/pip" install --quiet --disable-pip-version-check "schemathesis==$SCHEMATHESIS_VERSION"
  echo "schemathesis $SCHEMATHESIS_VERSION installed in $((SECONDS - started)) s"
}

ensure_schemathesis

# schemathesis keeps its state (.hypothesis, .schemathesis) in the working directory: give it one under .tools.
work="$PWD/.tools/fuzz"
mkdir -p "$work"
report_dir="${FUZZ_REPORT_DIR:-$(mktemp -d)}"
[ -n "${FUZZ_REPORT_DIR:-}" ] || trap 'rm -rf "$report_dir"' EXIT
# ${...} is read by schemathesis from the environment, so the token is never written down.
cat >"$work/schemathesis.toml" <<'EOF'
[parameters]
"path.slug" = "${FUZZ_SLUG}"

[auth.openapi.bearerAuth]
bearer = "${FUZZ_TOKEN}"

[cache]
enabled = false
EOF

# Boundary and hostile shapes (issue 10): every `date` and `date-time` field also gets dates outside the accepted
# calendar (1900-2200) and instants at the ends of JavaScript's range, with and without offsets; they must be refused
# with a documented 4xx like any other invalid value. test/gates/hostile-inputs.test.ts sends the rest (NUL bytes,
# 100 kB, lone surrogates, huge numbers, centuries-long spans) to every field and measures the event loop.
cat >"$work/hooks.py" <<'EOF'
from datetime import date, datetime, timezone

import schemathesis
from hypothesis import strategies as st

DATES = ["0000-01-01", "0001-01-01", "1899-12-31", "2201-01-01", "9999-12-31"]
INSTANTS = [
    "+275760-09-13T00:00:00Z",
    "-271821-04-20T00:00:00Z",
    "0000-01-01T00:00:00Z",
    "0000-01-01T00:00:00+14:00",
    "9999-12-31T23:59:59-12:00",
]
calendar = st.dates(min_value=date(1900, 1, 1), max_value=date(2200, 12, 31))
instants = st.datetimes(min_value=datetime(1900, 1, 1), max_value=datetime(2200, 12, 31), timezones=st.just(timezone.utc))
schemathesis.openapi.format("date", st.one_of(calendar.map(date.isoformat), st.sampled_from(DATES)))
schemathesis.openapi.format("date-time", st.one_of(instants.map(datetime.isoformat), st.sampled_from(INSTANTS)))
EOF
export SCHEMATHESIS_HOOKS="$work/hooks.py"

started=$SECONDS
status=0
# The time limit: `st run --max-time` would keep fuzzing until the budget is spent; one full pass with a fixed seed
# is repeatable, and `timeout` stops a run that hangs.
st="$PWD/$VENV/bin/st"
(cd "$work" && timeout --signal=INT --kill-after=15 "$time_limit" "$st" \
  --config-file "$work/schemathesis.toml" --no-color run "$FUZZ_BASE_URL/api/openapi.json" \
  --url "$FUZZ_BASE_URL" \
  --checks not_a_server_error,status_code_conformance,response_schema_conformance,content_type_conformance \
  --max-examples "$max_examples" --seed "$seed" --workers "$workers" \
  --generation-database none --suppress-health-check all \
  --max-redirects 0 --request-timeout 15 \
  --report json --report-json-path "$report_dir/report.json" \
  ${EXCLUSIONS[@]+"${EXCLUSIONS[@]}"}) || status=$?

if [ "$status" -eq 124 ] || [ "$status" -eq 130 ] || [ "$status" -eq 137 ]; then
  echo "fuzz: stopped after the time limit of $time_limit s" >&2
fi
if [ -s "$report_dir/report.json" ]; then
  "$VENV/bin/python" - "$report_dir/report.json" "$((SECONDS - started))" <<'EOF'
import json, sys
report = json.load(open(sys.argv[1]))
cases = report["test_cases"]
print(
    f"fuzz: {cases['generated']} generated requests, {cases['unique_failures']} failures, "
    f"{len(report['errors'])} errors, {report['operations']['tested']} operations "
    f"(schemathesis {report['schemathesis_version']}, seed {report['seed']}, {sys.argv[2]} s)"
)
EOF
else
  echo "fuzz: no report (schemathesis exited with $status)" >&2
  [ "$status" -ne 0 ] || status=1
fi
exit "$status"
