#!/usr/bin/env bash
# npm run test:unit: the tests that need no stack (rules, pricing, schemas, workflow logic and replay), in seconds.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/lib.sh
ensure_node_modules
ensure_temporal_cli
exec jest -c jest.unit.config.js "$@"
