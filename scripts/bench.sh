#!/usr/bin/env bash
# npm run bench: measurements printed as figures, on a private stack (nothing shared with dev data).
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/lib.sh
ensure_node_modules
ensure_temporal_cli
ensure_versitygw
exec node --import tsx scripts/bench/index.ts "$@"
