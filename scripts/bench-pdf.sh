#!/usr/bin/env bash
# bench-pdf.sh — PDF throughput on a long document: the bench report (64
# chapters, 77 A4 pages, tagged, printed by Chromium from generated HTML:
# pdftest.LongHTML) through sieve-capture | sieve-normalize | sieve-graph,
# side by side with `pdftotext -bbox-layout` (poppler) on the same file in
# the same run. Prints pages/s (best of RUNS, after one warm-up run that
# fills wazero's compilation cache) and the peak RSS of each process, and
# one first run with an empty cache.
set -euo pipefail
cd "$(dirname "$0")/.."
BIN=${BIN:-$PWD/bin}
RUNS=${RUNS:-3}
OUT=${OUT:-$PWD/.bench/pdf}
scripts/ensure-tools.sh time poppler-utils:pdftotext >/dev/null
mkdir -p "$OUT"
doc=$OUT/long.pdf
if [ ! -s "$doc" ]; then
  go run ./cmd/sievepdfgen -long "$doc"
fi
pages=$(pdfinfo "$doc" | awk '/^Pages:/ {print $2}')
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
echo "$doc" >"$work/targets"

sieve_once() { # one capture | normalize | graph run; prints wall seconds
  local t0 t1
  t0=$(date +%s.%N)
  /usr/bin/time -f '%M' -o "$work/c.rss" "$BIN/sieve-capture" <"$work/targets" |
    /usr/bin/time -f '%M' -o "$work/n.rss" "$BIN/sieve-normalize" |
    /usr/bin/time -f '%M' -o "$work/g.rss" "$BIN/sieve-graph" >"$work/graph.jsonl"
  t1=$(date +%s.%N)
  calc "$t1 - $t0"
}

poppler_once() {
  local t0 t1
  t0=$(date +%s.%N)
  /usr/bin/time -f '%M' -o "$work/p.rss" pdftotext -bbox-layout "$doc" "$work/bbox.html"
  t1=$(date +%s.%N)
  calc "$t1 - $t0"
}

calc() { awk "BEGIN { printf \"%.3f\", $1 }"; }

best() { # best FUNC: the shortest of RUNS runs, after a warm-up
  local f=$1 b= s
  "$f" >/dev/null
  for _ in $(seq "$RUNS"); do
    s=$("$f")
    if [ -z "$b" ] || [ "$(calc "$s < $b")" = 1.000 ]; then b=$s; fi
  done
  echo "$b"
}

# One run with an empty compilation cache: what a first use pays.
tc=$(XDG_CACHE_HOME=$work/cache sieve_once)
cp "$work/c.rss" "$work/cold.rss"
ts=$(best sieve_once)
grep -q '"record":"graph"' "$work/graph.jsonl" || { echo "sieve-graph wrote no graph record" >&2; exit 1; }
tp=$(best poppler_once)
mb() { echo "$(( $(cat "$1") / 1024 ))"; }
printf 'document: %s (%s pages, %s bytes)\n' "$doc" "$pages" "$(stat -c %s "$doc")"
printf '%-48s %8s %8s  %s\n' run seconds pages/s 'peak RSS (MB)'
printf '%-48s %8.2f %8.1f  capture %s / normalize %s / graph %s\n' \
  'sieve-capture | sieve-normalize | sieve-graph' "$ts" "$(calc "$pages / $ts")" \
  "$(mb "$work/c.rss")" "$(mb "$work/n.rss")" "$(mb "$work/g.rss")"
printf '%-48s %8.2f %8.1f  capture %s\n' '  the same, first run (empty wasm compile cache)' "$tc" "$(calc "$pages / $tc")" "$(mb "$work/cold.rss")"
printf '%-48s %8.2f %8.1f  %s\n' 'pdftotext -bbox-layout' "$tp" "$(calc "$pages / $tp")" "$(mb "$work/p.rss")"
printf 'time per page sieve / pdftotext: %.1fx\n' "$(calc "$ts / $tp")"
