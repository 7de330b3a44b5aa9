#!/usr/bin/env bash
# Real-n8n e2e tests (`npm run test:n8n`).
#   bash test/n8n/run.sh                         # all test/n8n/*.test.js
#   bash test/n8n/run.sh test/n8n/foo.test.js    # some files
#   N8N_E2E_SKIP_BUILD=1 ...                     # skip `npm run build`
#   N8N_E2E_ECHO=1 ...                           # echo n8n's console output
#   N8N_E2E_CACHE=dir ...                        # where n8n + Node 22 live (install.sh)
# The tests run under the Node on PATH (20 or 22) with node:test; each test file starts
# one real n8n (Node 22, from the cache) and drives it over REST (test/n8n/harness.js).
set -euo pipefail
cd "$(dirname "$0")/../.."

t0=$(date +%s)
bash test/n8n/install.sh >/dev/null
t1=$(date +%s)
echo "[test:n8n] n8n install/check: $((t1 - t0))s" >&2

if [[ -z "${N8N_E2E_SKIP_BUILD:-}" ]]; then
  npm run --silent build
  echo "[test:n8n] build: $(( $(date +%s) - t1 ))s" >&2
fi

if [[ $# -gt 0 ]]; then
  files=("$@")
else
  shopt -s nullglob
  files=(test/n8n/*.test.js)
fi
# One file at a time: each starts its own n8n (CPU-heavy start-up on 2 cores).
exec node --test --test-concurrency=1 "${files[@]}"
