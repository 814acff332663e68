#!/usr/bin/env bash
# bench-stream.sh — the static pipeline as users run it: the scrapinghub
# pages captured once from local files, then the capture stream repeated
# ROUNDS times through sieve-normalize | sieve-graph | sieve-render. Prints
# pages/s and MB/s for the piped stages (capture excluded) and the peak RSS
# of each stage for a short and a long stream: flat memory means the two
# peaks match.
set -euo pipefail
cd "$(dirname "$0")/.."
BIN=${BIN:-$PWD/bin}
BENCH=${SIEVE_BENCH_DIR:-$PWD/../shared/bench}
ROUNDS=${ROUNDS:-20}
scripts/ensure-tools.sh time >/dev/null
[ -d "$BENCH/scrapinghub/html" ] || { echo "no benchmark pages in $BENCH (set SIEVE_BENCH_DIR)"; exit 1; }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/pages"
for f in "$BENCH"/scrapinghub/html/*.gz; do
  b=$(basename "$f" .gz)
  gunzip -c "$f" >"$work/pages/$b"
done
ls "$work"/pages/*.html | "$BIN/sieve-capture" --tier static >"$work/capture.jsonl"
pages=$(wc -l <"$work/capture.jsonl")

run() { # run ROUNDS: stream the captures ROUNDS times, print stats
  local rounds=$1 in="$work/in-$1.jsonl"
  : >"$in"
  for _ in $(seq "$rounds"); do cat "$work/capture.jsonl" >>"$in"; done
  local bytes n start end
  bytes=$(stat -c %s "$in"); n=$((pages * rounds))
  rm -rf "$work/out"
  start=$(date +%s.%N)
  /usr/bin/time -f '%M' -o "$work/n.rss" "$BIN/sieve-normalize" <"$in" |
    /usr/bin/time -f '%M' -o "$work/g.rss" "$BIN/sieve-graph" |
    /usr/bin/time -f '%M' -o "$work/r.rss" "$BIN/sieve-render" --out "$work/out" >/dev/null
  end=$(date +%s.%N)
  awk -v n="$n" -v b="$bytes" -v s="$start" -v e="$end" -v rn="$(cat "$work/n.rss")" \
      -v rg="$(cat "$work/g.rss")" -v rr="$(cat "$work/r.rss")" -v r="$rounds" 'BEGIN {
    t = e - s
    printf "%6d pages (%2d rounds): %6.1f pages/s, %6.1f MB/s of capture records; peak RSS normalize %d MB, graph %d MB, render %d MB\n",
      n, r, n / t, b / t / 1e6, rn / 1024, rg / 1024, rr / 1024 }'
}

echo "static pipe over $pages scrapinghub pages (normalize | graph | render, 2 cores shared by the three stages)"
run 1
run "$ROUNDS"
