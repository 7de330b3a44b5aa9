#!/usr/bin/env bash
# `npm run test:browser`: the demo's real n8n (test/n8n/harness.js) in headless Chromium driven by
# playwright-core. Needs Chromium from the OS packages (Debian: apt-get install -y chromium; or set
# CHROMIUM_PATH) and the cached n8n (installed on first use, as for test:n8n).
set -euo pipefail
cd "$(dirname "$0")/../.."
CHROMIUM_PATH="${CHROMIUM_PATH:-$(command -v chromium || command -v chromium-browser || true)}"
if [[ -z "$CHROMIUM_PATH" ]]; then
  echo "test:browser needs Chromium: apt-get install -y chromium (Debian/Ubuntu), or set CHROMIUM_PATH." >&2
  exit 1
fi
export CHROMIUM_PATH
bash test/n8n/install.sh >/dev/null
[[ -n "${N8N_E2E_SKIP_BUILD:-}" ]] || npm run --silent build
exec node --test --test-concurrency=1 test/browser/*.test.js
