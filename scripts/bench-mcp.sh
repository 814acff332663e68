#!/usr/bin/env bash
# bench-mcp.sh — the MCP server's benchmarks (mcp/bench_test.go): what
# distill returns against page bytes, get_section/search latency, and
# distill's latency over MCP on a static page, a render-tier page and a
# PDF from a server started warm as `sieve mcp` starts (Options.Warm: the
# browser, its first tab and the PDF engine are up before the first call).
# Then a summary of distill's latency: the first call of each kind and the
# p50/p95 of the BENCHTIME calls after it. BENCHTIME is go test's
# -benchtime (50x).
set -euo pipefail
cd "$(dirname "$0")/.."
GO=${GO:-go}
out=$(mktemp)
trap 'rm -f "$out"' EXIT
$GO test -run '^$' -bench MCP -benchtime "${BENCHTIME:-50x}" -count 1 ./mcp | tee "$out"
echo
echo "distill over MCP (in-memory transport, local files, warm server), ${BENCHTIME:-50x} calls after the first:"
awk '/^BenchmarkMCPDistillLatency\// {
  name = $1; sub(/^BenchmarkMCPDistillLatency\//, "", name); sub(/-[0-9]+$/, "", name)
  p50 = p95 = first = ""
  for (i = 2; i < NF; i++) {
    if ($(i + 1) == "p50-ms") p50 = $i
    if ($(i + 1) == "p95-ms") p95 = $i
    if ($(i + 1) == "first-ms") first = $i
  }
  printf "  %-7s first call %8.1f ms   warm calls p50 %8.1f ms   p95 %8.1f ms\n", name, first, p50, p95
}' "$out"
