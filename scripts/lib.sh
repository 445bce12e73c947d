# Shared by dev.sh, test.sh and bench.sh: bring what is missing, never what is there.
TEMPORAL_VERSION=v1.5.1
# Node 24 and the tools come from node_modules/.bin, also when a script is run without npm.
export PATH="$PWD/node_modules/.bin:$PATH"

ensure_node_modules() {
  if [ ! -x node_modules/.bin/node ] || [ ! -f node_modules/.package-lock.json ] \
    || [ package-lock.json -nt node_modules/.package-lock.json ]; then
    echo "Installing dependencies..."
    npm install --no-audit --no-fund --loglevel=error
  fi
}

# The Temporal dev server, built from source once; a per-user cache makes fresh clones on this machine fast.
ensure_temporal_cli() {
  if [ -n "${TEMPORAL_ADDRESS:-}" ] || [ -n "${TEMPORAL_CLI:-}" ] || [ -x .tools/bin/temporal ]; then return; fi
  local cache="${XDG_CACHE_HOME:-$HOME/.cache}/hotel-pms/temporal-$TEMPORAL_VERSION"
  mkdir -p .tools/bin
  if [ ! -x "$cache" ]; then
    command -v go >/dev/null || { echo "Go is needed once to build the Temporal dev server (or set TEMPORAL_ADDRESS)" >&2; exit 1; }
    echo "Building the Temporal CLI $TEMPORAL_VERSION (once; takes a few minutes)..."
    GOBIN="$PWD/.tools/bin" GOTOOLCHAIN=local go install "github.com/temporalio/cli/cmd/temporal@$TEMPORAL_VERSION"
    mkdir -p "$(dirname "$cache")" && cp .tools/bin/temporal "$cache"
  else
    cp "$cache" .tools/bin/temporal
  fi
}
