#!/usr/bin/env bash
# `npm run demo`: build, start the sandbox and a real n8n with this package loaded,
# create the owner account + a VTU credential for the sandbox, import examples/*.json,
# then stay in the foreground until Ctrl-C (children are stopped on exit).
#
#   SANDBOX_PORT=8080 DEMO_N8N_PORT=5678     ports (defaults shown)
#   DEMO_EMAIL / DEMO_PASSWORD               owner account (demo@example.com / VtuDemo-Passw0rd)
#   DEMO_N8N_USER_FOLDER=dir                 keep n8n's state (default: temp dir, removed)
#   DEMO_N8N_LISTEN=0.0.0.0                  listen beyond loopback
#   DEMO_SKIP_BUILD=1                        skip `npm run build`
#   VTU_SANDBOX_TOKEN / VTU_ADMIN_KEY        fix the sandbox's demo token / admin key
#   --storefront                             the storefront walk-through (tools/storefront-demo.ts) instead
set -euo pipefail
cd "$(dirname "$0")/.."
# `npm run demo -- --storefront`: the storefront walk-through instead (a customer funds a wallet through the
# payment sandbox and buys; no n8n, no real money): tools/storefront-demo.ts
if [[ "${1:-}" == "--storefront" ]]; then exec npx --no-install tsx tools/storefront-demo.ts; fi
ROOT="$PWD"
SANDBOX_PORT="${SANDBOX_PORT:-8080}"
export DEMO_N8N_PORT="${DEMO_N8N_PORT:-5678}"
LOG_DIR="$(mktemp -d "${TMPDIR:-/tmp}/vtu-demo.XXXXXX")"
SB_PID=""
N8N_PID=""

log() { printf '[demo] %s\n' "$*" >&2; }

cleanup() {
  local rc=$?
  trap - EXIT INT TERM
  if [[ -n "$N8N_PID" ]] && kill -0 "$N8N_PID" 2>/dev/null; then
    kill -TERM "$N8N_PID" 2>/dev/null || true
    wait "$N8N_PID" 2>/dev/null || true
  fi
  if [[ -n "$SB_PID" ]] && kill -0 "$SB_PID" 2>/dev/null; then
    log "stopping sandbox"
    # the sandbox runs in its own process group (set -m): npx → tsx → node
    kill -TERM -- "-$SB_PID" 2>/dev/null || kill -TERM "$SB_PID" 2>/dev/null || true
    wait "$SB_PID" 2>/dev/null || true
  fi
  rm -rf "$LOG_DIR"
  exit "$rc"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

port_busy() {
  node -e 'const s = require("net").connect(+process.argv[1], "127.0.0.1");
    s.on("connect", () => process.exit(0)); s.on("error", () => process.exit(1))' "$1"
}
for p in "$SANDBOX_PORT" "$DEMO_N8N_PORT"; do
  if port_busy "$p"; then log "port $p is already in use (set SANDBOX_PORT / DEMO_N8N_PORT)"; exit 1; fi
done

log "installing/checking real n8n (cached; the first time takes a few minutes)"
bash test/n8n/install.sh >/dev/null

if [[ -z "${DEMO_SKIP_BUILD:-}" ]]; then
  log "building"
  npm run --silent build
fi

[[ -f sandbox/cli.ts ]] || { log "sandbox/cli.ts not found"; exit 1; }
log "starting sandbox on port $SANDBOX_PORT"
set -m   # background jobs get their own process group, so cleanup can stop the whole tree
npx --no-install tsx sandbox/cli.ts --port "$SANDBOX_PORT" >"$LOG_DIR/sandbox.out" 2>"$LOG_DIR/sandbox.err" &
SB_PID=$!
set +m
for _ in $(seq 1 600); do
  grep -q '^VTU_ADMIN_KEY=' "$LOG_DIR/sandbox.out" 2>/dev/null && break
  if ! kill -0 "$SB_PID" 2>/dev/null; then
    log "sandbox exited:"; cat "$LOG_DIR/sandbox.err" >&2; exit 1
  fi
  sleep 0.1
done
if ! grep -q '^VTU_ADMIN_KEY=' "$LOG_DIR/sandbox.out"; then
  log "sandbox did not print its URL/token within 60 s"; cat "$LOG_DIR/sandbox.err" >&2; exit 1
fi
VTU_BASE_URL="$(sed -n 's/^VTU_BASE_URL=//p' "$LOG_DIR/sandbox.out" | head -1)"
VTU_API_TOKEN="$(sed -n 's/^VTU_API_TOKEN=//p' "$LOG_DIR/sandbox.out" | head -1)"
VTU_ADMIN_KEY="$(sed -n 's/^VTU_ADMIN_KEY=//p' "$LOG_DIR/sandbox.out" | head -1)"
export VTU_BASE_URL VTU_API_TOKEN VTU_ADMIN_KEY
log "sandbox: $VTU_BASE_URL"

set -m
node "$ROOT/scripts/demo-n8n.js" &
N8N_PID=$!
set +m
# Wait for either child to stop; Ctrl-C reaches only this script (children have their
# own process groups) and the EXIT trap stops both.
while kill -0 "$N8N_PID" 2>/dev/null && kill -0 "$SB_PID" 2>/dev/null; do
  sleep 1
done
if ! kill -0 "$SB_PID" 2>/dev/null; then log "sandbox stopped:"; tail -20 "$LOG_DIR/sandbox.err" >&2; fi
wait "$N8N_PID" 2>/dev/null || true
exit 1
