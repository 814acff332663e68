#!/usr/bin/env bash
# mcp-conformance.sh runs the protocol-level server scenarios of the MCP
# conformance suite (npm @modelcontextprotocol/conformance) that apply to
# `sieve mcp` against it over Streamable HTTP on 127.0.0.1, and prints which
# pass. The other server scenarios call the fixture tools, resources and
# prompts of the suite's reference "everything" server (test_simple_text,
# test://static-text, json_schema_2020_12_tool, …), which sieve does not
# have. 0.1.11 is the last release that runs on Debian's Node 20 (later ones
# need Node 22's fs.globSync). Installed into a cache directory like ajv;
# skips loudly when it cannot run, fails under CI=true. Needs bin/sieve.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
cache=${MCP_CONFORMANCE_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/sieve-mcp-conformance}
version=0.1.11
scenarios=(server-initialize ping tools-list resources-list prompts-list logging-set-level
  dns-rebinding-protection server-sse-multiple-streams)

skip() {
  if [ "${CI:-}" = "true" ]; then
    echo "mcp-conformance: FAILED: $1" >&2
    exit 1
  fi
  echo "WARNING: mcp-conformance SKIPPED: $1" >&2
  exit 0
}

command -v node >/dev/null 2>&1 || skip "node is not installed (apt-get install npm)"
bin="$cache/node_modules/.bin/conformance"
if [ ! -x "$bin" ] || ! grep -q "\"version\": \"$version\"" "$cache/node_modules/@modelcontextprotocol/conformance/package.json"; then
  command -v npm >/dev/null 2>&1 || skip "npm is not installed"
  mkdir -p "$cache"
  npm install --prefix "$cache" --no-audit --no-fund --silent "@modelcontextprotocol/conformance@$version" >&2 \
    || skip "npm install @modelcontextprotocol/conformance@$version failed"
fi
[ -x "$root/bin/sieve" ] || { echo "mcp-conformance: bin/sieve is missing: run make build" >&2; exit 1; }

tmp=$(mktemp -d)
"$root/bin/sieve" mcp --http 127.0.0.1:0 --store "$tmp/store" --tier static 2>"$tmp/log" &
pid=$!
trap 'kill $pid 2>/dev/null || true; wait $pid 2>/dev/null || true; rm -rf "$tmp"' EXIT
url=
for _ in $(seq 100); do
  url=$(grep -o 'http://127\.0\.0\.1:[0-9]*/mcp' "$tmp/log" || true)
  [ -n "$url" ] && break
  sleep 0.1
done
[ -n "$url" ] || { cat "$tmp/log" >&2; echo "mcp-conformance: sieve mcp --http did not start" >&2; exit 1; }

failed=0
for s in "${scenarios[@]}"; do
  out=$("$bin" server --url "$url" --scenario "$s" 2>&1 | sed 's/\x1b\[[0-9;]*m//g' || true)
  summary=$(grep -o 'Passed: [0-9]*/[0-9]*, [0-9]* failed, [0-9]* warnings' <<<"$out" | tail -1)
  if [ -n "$summary" ] && grep -q ', 0 failed' <<<"$summary"; then
    echo "pass  $s ($summary)"
  else
    echo "FAIL  $s (${summary:-no summary})"
    failed=$((failed + 1))
  fi
done
echo "mcp-conformance: ${#scenarios[@]} scenarios, $failed failed (@modelcontextprotocol/conformance $version)"
[ "$failed" -eq 0 ]
