#!/usr/bin/env bash
# npm run dev: install what is missing, start the whole stack, print where each piece listens.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/lib.sh
ensure_node_modules
ensure_temporal_cli
ensure_versitygw
exec node --import tsx scripts/dev.ts "$@"
