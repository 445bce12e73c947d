# Shared by dev.sh, test.sh and bench.sh: bring what is missing, never what is there.
TEMPORAL_VERSION=v1.5.1
VERSITYGW_VERSION=v1.8.0
# Node 24 and the tools come from node_modules/.bin, also when a script is run without npm.
export PATH="$PWD/node_modules/.bin:$PATH"

ensure_node_modules() {
  if [ ! -x node_modules/.bin/node ] || [ ! -f node_modules/.package-lock.json ] \
    || [ package-lock.json -nt node_modules/.package-lock.json ]; then
    echo "Installing dependencies..."
    npm install --no-audit --no-fund --loglevel=error
  fi
}

# A Go program built from source once into .tools/bin; a per-user cache makes fresh clones on this machine fast.
ensure_go_binary() { # name, module path, version, what it is for
  local name="$1" module="$2" version="$3" purpose="$4"
  if [ -x ".tools/bin/$name" ]; then return; fi
  local cache="${XDG_CACHE_HOME:-$HOME/.cache}/hotel-pms/$name-$version"
  mkdir -p .tools/bin
  if [ ! -x "$cache" ]; then
    command -v go >/dev/null || { echo "Go is needed once to build $purpose" >&2; exit 1; }
    echo "Building $name $version (once; takes a few minutes)..."
    GOBIN="$PWD/.tools/bin" GOTOOLCHAIN=local go install "$module@$version"
    # Copied then renamed, so another clone building at the same time never reads a half-written cache.
    mkdir -p "$(dirname "$cache")" && cp ".tools/bin/$name" "$cache.$$" && mv "$cache.$$" "$cache"
  else
    cp "$cache" ".tools/bin/$name"
  fi
}

# The Temporal dev server.
ensure_temporal_cli() {
  if [ -n "${TEMPORAL_ADDRESS:-}" ] || [ -n "${TEMPORAL_CLI:-}" ]; then return; fi
  ensure_go_binary temporal github.com/temporalio/cli/cmd/temporal "$TEMPORAL_VERSION" \
    "the Temporal dev server (or set TEMPORAL_ADDRESS)"
}

# The local S3 object store (scripts/stack/object-store.ts).
ensure_versitygw() {
  if [ -n "${S3_ENDPOINT:-}" ] || [ -n "${VERSITYGW_BIN:-}" ]; then return; fi
  ensure_go_binary versitygw github.com/versity/versitygw/cmd/versitygw "$VERSITYGW_VERSION" \
    "the local object store (or set S3_ENDPOINT)"
}

# Debian's Chromium, for the test that renders the daily report e-mail (test/api/daily-report-email.test.ts), which
# reads CHROMIUM_PATH. Taken from CHROMIUM_PATH, else chromium or chromium-browser on PATH, else installed with apt-get
# when this user may (root, or sudo without a password; its output in a log). Where none of that works it warns and
# the run goes on: that one test then fails saying why.
ensure_chromium() {
  if [ -n "${CHROMIUM_PATH:-}" ] && [ -x "$CHROMIUM_PATH" ]; then export CHROMIUM_PATH; return; fi
  local found
  found="$(command -v chromium || command -v chromium-browser || true)"
  if [ -z "$found" ]; then
    local sudo="" log="${TMPDIR:-/tmp}/hotel-pms-chromium-install.log"
    if [ "$(id -u)" -ne 0 ]; then
      if sudo -n true 2>/dev/null; then sudo="sudo -n"; else sudo="none"; fi
    fi
    if [ "$sudo" != "none" ]; then
      echo "Installing Chromium with apt-get (once; output in $log)..."
      { $sudo apt-get update -qq && $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium; } \
        >"$log" 2>&1 || true
      found="$(command -v chromium || command -v chromium-browser || true)"
    fi
  fi
  if [ -n "$found" ]; then
    export CHROMIUM_PATH="$found"
  else
    echo "warning: no Chromium (set CHROMIUM_PATH, or install Debian's chromium); the daily report e-mail test will fail" >&2
  fi
}
