#!/usr/bin/env bash
# mcp-client-test.sh drives `sieve mcp` with the official TypeScript MCP
# client, @modelcontextprotocol/sdk from npm, over stdio and Streamable HTTP
# against the sample site on 127.0.0.1 (scripts/mcp-client-test.mjs says
# what it checks). The client is installed into a cache directory the first
# time; as root, a missing node/npm is installed with apt-get (Debian's npm
# package). When that or the install fails, it fails under CI=true and
# otherwise skips, loudly. Needs sieve and sieve-sample in $SIEVE_TEST_BIN
# (make mcp-client builds them there), else in bin/ (make build).
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
cache=${MCP_CLIENT_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/sieve-mcp-client}
sdk_version=1.32.2

skip() {
  if [ "${CI:-}" = "true" ]; then
    echo "mcp-client-test: FAILED: $1" >&2
    exit 1
  fi
  echo "WARNING: mcp-client-test SKIPPED: $1 (sieve mcp was tested with the Go SDK's client only)" >&2
  exit 0
}

if ! command -v node >/dev/null 2>&1 || ! command -v npm >/dev/null 2>&1; then
  "$root/scripts/ensure-tools.sh" npm >&2 || true
fi
command -v node >/dev/null 2>&1 || skip "node is not installed (apt-get install npm)"
pkg="$cache/node_modules/@modelcontextprotocol/sdk/package.json"
if [ ! -f "$pkg" ] || ! grep -q "\"version\": \"$sdk_version\"" "$pkg"; then
  command -v npm >/dev/null 2>&1 || skip "npm is not installed"
  mkdir -p "$cache"
  npm install --prefix "$cache" --no-audit --no-fund --silent "@modelcontextprotocol/sdk@$sdk_version" >&2 \
    || skip "npm install @modelcontextprotocol/sdk@$sdk_version failed"
fi
bin=${SIEVE_TEST_BIN:-$root/bin}
for b in sieve sieve-sample; do
  [ -x "$bin/$b" ] || { echo "mcp-client-test: $bin/$b is missing: run make build" >&2; exit 1; }
done
exec node "$root/scripts/mcp-client-test.mjs" "$bin/sieve" "$bin/sieve-sample" "$cache/node_modules"
