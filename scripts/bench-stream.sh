#!/usr/bin/env bash
# bench-stream.sh — the static pipeline as users run it: the scrapinghub
# pages captured once from local files, then the capture stream repeated
# ROUNDS times through sieve-normalize | sieve-graph | sieve-render. Prints
# pages/s and MB/s for the piped stages (capture excluded) and the peak RSS
# of each stage for a short and a long stream: flat memory means the two
# peaks match.
#
# Then, same run, same pages (issue 17), each pair timed REPS times in
# turn and its best wall time kept (the machine is shared; CPU seconds are
# printed beside it):
#   - piped vs in-process: sieve-capture | sieve-normalize | sieve-graph |
#     sieve-render against sieve distill --tier static on the pages
#     (target: the pipe at ≥ 0.8× the in-process rate);
#   - passthrough vs cat | cat: the capture stream (PASS_ROUNDS copies)
#     through sieve-graph | sieve-graph, which pass capture records
#     through, against cat | cat (target ≥ 0.8×);
#   - render with evidence vs --no-evidence on the pages' graph records
#     (target ≤ 1.3× the time).
set -euo pipefail
cd "$(dirname "$0")/.."
BIN=${BIN:-$PWD/bin}
BENCH=${SIEVE_BENCH_DIR:-$PWD/../shared/bench}
ROUNDS=${ROUNDS:-20}
REPS=${REPS:-3}
PASS_ROUNDS=${PASS_ROUNDS:-5}
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
  start=$(date +%s.%N)
  /usr/bin/time -f '%M' -o "$work/n.rss" "$BIN/sieve-normalize" <"$in" |
    /usr/bin/time -f '%M' -o "$work/g.rss" "$BIN/sieve-graph" |
    /usr/bin/time -f '%M' -o "$work/r.rss" "$BIN/sieve-render" --out "$work/out-$rounds" >/dev/null
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

# best NAME CMD: run CMD (sh -c) REPS times, keep the best wall time; sets
# best_s (wall) and best_cpu (user+sys of that run).
# Every run writes into a directory of its own (OUT in CMD) and nothing is
# deleted until the end: on ext4 a file created soon after many were
# deleted costs several times more (the inode allocator skips recently
# deleted inodes), which timed the previous run's rm -rf into the next.
mkdir -p "$work/o"
timed() { # CMD: one run, prints "wall cpu"
  local out
  out=$(mktemp -d -p "$work/o")
  /usr/bin/time -f '%e %U %S' -o "$work/t" sh -c "${1//OUT/$out}" >/dev/null 2>"$work/err" || { cat "$work/err" >&2; exit 1; }
  awk '{ printf "%.3f %.3f\n", $1, $2 + $3 }' "$work/t"
}
pair() { # LABEL_A CMD_A LABEL_B CMD_B: alternate REPS times, print best of each and the ratio
  local la=$1 ca=$2 lb=$3 cb=$4 a b ba=999999 bb=999999 pa pb
  for _ in $(seq "$REPS"); do
    read -r a pa < <(timed "$ca")
    read -r b pb < <(timed "$cb")
    if awk -v x="$a" -v y="$ba" 'BEGIN { exit !(x < y) }'; then ba=$a; cpa=$pa; fi
    if awk -v x="$b" -v y="$bb" 'BEGIN { exit !(x < y) }'; then bb=$b; cpb=$pb; fi
  done
  printf '  %-44s %7.2f s wall (best of %d), %7.2f s CPU\n' "$la" "$ba" "$REPS" "$cpa"
  printf '  %-44s %7.2f s wall (best of %d), %7.2f s CPU\n' "$lb" "$bb" "$REPS" "$cpb"
  pair_a=$ba pair_b=$bb
}

echo
echo "piped vs in-process (issue 17): the same $pages pages, static tier, artifacts with evidence"
ls "$work"/pages/*.html >"$work/list"
pair "pipe: capture|normalize|graph|render" \
  "'$BIN/sieve-capture' -q --tier static <'$work/list' | '$BIN/sieve-normalize' -q | '$BIN/sieve-graph' -q | '$BIN/sieve-render' -q --out OUT" \
  "in-process: sieve distill --tier static" \
  "'$BIN/sieve' distill -q --tier static --out OUT <'$work/list'"
awk -v p="$pair_a" -v d="$pair_b" 'BEGIN { printf "  piped rate = %.2fx the in-process rate (target >= 0.8)\n", d / p }'

# The same on a batch five times as long (the pages copied under five
# names, so that every artifact is a new one): what a pipe pays once per
# process (start-up, the codec's compilation for long streams) spreads
# over more pages.
mkdir -p "$work/pages5"
for k in 1 2 3 4 5; do
  for f in "$work"/pages/*.html; do cp "$f" "$work/pages5/$k-$(basename "$f")"; done
done
ls "$work"/pages5/*.html >"$work/list5"
echo "piped vs in-process on a batch of $(wc -l <"$work/list5") pages"
pair "pipe: capture|normalize|graph|render" \
  "'$BIN/sieve-capture' -q --tier static <'$work/list5' | '$BIN/sieve-normalize' -q | '$BIN/sieve-graph' -q | '$BIN/sieve-render' -q --out OUT" \
  "in-process: sieve distill --tier static" \
  "'$BIN/sieve' distill -q --tier static --out OUT <'$work/list5'"
awk -v p="$pair_a" -v d="$pair_b" 'BEGIN { printf "  piped rate = %.2fx the in-process rate\n", d / p }'

: >"$work/pass.jsonl"
for _ in $(seq "$PASS_ROUNDS"); do cat "$work/capture.jsonl" >>"$work/pass.jsonl"; done
pbytes=$(stat -c %s "$work/pass.jsonl")
echo
echo "passthrough vs cat | cat (issue 17): $((pages * PASS_ROUNDS)) capture records, $((pbytes / 1000000)) MB, through two stages that pass them on"
pair "sieve-graph | sieve-graph (passing through)" \
  "'$BIN/sieve-graph' -q <'$work/pass.jsonl' | '$BIN/sieve-graph' -q >/dev/null" \
  "cat | cat" \
  "cat <'$work/pass.jsonl' | cat >/dev/null"
awk -v s="$pair_a" -v c="$pair_b" -v b="$pbytes" 'BEGIN {
  printf "  passthrough %.0f MB/s, cat | cat %.0f MB/s: %.2fx (target >= 0.8)\n", b / s / 1e6, b / c / 1e6, c / s }'

"$BIN/sieve-normalize" -q <"$work/capture.jsonl" | "$BIN/sieve-graph" -q >"$work/graph.jsonl"
echo
echo "render with evidence vs --no-evidence (issue 17): $pages graph records"
pair "sieve-render (evidence)" \
  "'$BIN/sieve-render' -q --out OUT <'$work/graph.jsonl'" \
  "sieve-render --no-evidence" \
  "'$BIN/sieve-render' -q --no-evidence --out OUT <'$work/graph.jsonl'"
awk -v e="$pair_a" -v n="$pair_b" 'BEGIN { printf "  evidence costs %.2fx the time of --no-evidence (target <= 1.3)\n", e / n }'
