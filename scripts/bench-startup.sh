#!/usr/bin/env bash
# bench-startup.sh — one process per page, as `xargs -n1` and GNU parallel
# batches run sieve (issue 17): `sieve distill --format text PAGE` once per
# scrapinghub page against go-readability's own CLI (codeberg.org/readeck/
# go-readability/v2/cmd/go-readability, the version bench/quality pins,
# `--text --force PAGE`), and one process per tiny page against
# `sieve --version`. Runs alternate between the systems ROUNDS times; each
# figure is the median round's wall time and CPU time (user+sys of every
# process) per page. CPU time is the steadier figure on a loaded machine.
# `sieve --version` is also set against a Go hello-world (the floor of any
# Go process), and BASE_BIN, an earlier build's bin directory, is timed in
# the same rounds for before/after ratios (issue 27).
set -euo pipefail
cd "$(dirname "$0")/.."
BIN=${BIN:-$PWD/bin}
BENCH=${SIEVE_BENCH_DIR:-$PWD/../shared/bench}
ROUNDS=${ROUNDS:-3}
TINY_RUNS=${TINY_RUNS:-50}
READABILITY_VERSION=v2.1.3 # bench/quality/go.mod
scripts/ensure-tools.sh time >/dev/null
[ -d "$BENCH/scrapinghub/html" ] || { echo "no benchmark pages in $BENCH (set SIEVE_BENCH_DIR)"; exit 1; }
[ -x "$BIN/sieve" ] || { echo "no $BIN/sieve: make build first"; exit 1; }

peer=$PWD/.bench/bin/go-readability
if [ ! -x "$peer" ]; then
  GOBIN=$PWD/.bench/bin go install "codeberg.org/readeck/go-readability/v2/cmd/go-readability@$READABILITY_VERSION"
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/pages"
for f in "$BENCH"/scrapinghub/html/*.gz; do
  gunzip -c "$f" >"$work/pages/$(basename "$f" .gz)"
done
ls "$work"/pages/*.html >"$work/list"
pages=$(wc -l <"$work/list")
printf '<!doctype html><title>Tiny</title><p>Hello, world.</p>\n' >"$work/tiny.html"
# a Go hello-world: the floor of any Go process on this machine
printf 'package main\n\nimport "fmt"\n\nfunc main() { fmt.Println("hello") }\n' >"$work/hello.go"
(cd "$work" && GO111MODULE=off go build -o hello hello.go)

# each NAME N CMD...: run CMD with each page (or N times when the list is
# "-") one process at a time; append "wall cpu" in seconds to $work/NAME.
each() {
  local name=$1 list=$2; shift 2
  /usr/bin/time -f '%e %U %S' -o "$work/t" bash -c '
    list=$1; shift
    if [ "$list" = - ]; then
      for _ in $(seq "$TINY_RUNS"); do "$@" >/dev/null 2>&1 || true; done
    else
      while read -r p; do "$@" "$p" >/dev/null 2>&1 || true; done <"$list"
    fi' _ "$list" "$@"
  awk '{print $1, $2 + $3}' "$work/t" >>"$work/$name"
}

export TINY_RUNS
for _ in $(seq "$ROUNDS"); do
  each sieve "$work/list" "$BIN/sieve" distill -q --format text
  each readability "$work/list" "$peer" --text --force
  each tiny - "$BIN/sieve" distill -q --format text "$work/tiny.html"
  each version - "$BIN/sieve" --version
  each gover - "$work/hello"
  if [ -n "${BASE_BIN:-}" ]; then
    each base "$work/list" "$BASE_BIN/sieve" distill -q --format text
    each baseversion - "$BASE_BIN/sieve" --version
  fi
done

# median NAME COLUMN N: the median round's figure per process, in ms.
median() {
  sort -n -k"$2" "$work/$1" | awk -v c="$2" -v n="$3" '{v[NR] = $c} END {printf "%.1f", 1000 * v[int((NR + 1) / 2)] / n}'
}
report() { # report LABEL A B N: A vs B per process, wall and CPU
  local aw ac bw bc
  aw=$(median "$2" 1 "$4"); ac=$(median "$2" 2 "$4")
  bw=$(median "$3" 1 "$4"); bc=$(median "$3" 2 "$4")
  awk -v l="$1" -v a="$2" -v b="$3" -v aw="$aw" -v ac="$ac" -v bw="$bw" -v bc="$bc" 'BEGIN {
    printf "%-40s %s %6.1f ms wall %6.1f ms CPU | %s %6.1f ms wall %6.1f ms CPU | ratio %.2fx wall %.2fx CPU\n",
      l, a, aw, ac, b, bw, bc, aw / bw, ac / bc }'
}
echo "one process per page, median of $ROUNDS rounds, load $(cut -d' ' -f1-3 /proc/loadavg)"
report "scrapinghub ($pages pages), per page:" sieve readability "$pages"
report "tiny page ($TINY_RUNS runs), per process:" tiny version "$TINY_RUNS"
report "sieve --version ($TINY_RUNS runs), per process:" version gover "$TINY_RUNS"
if [ -n "${BASE_BIN:-}" ]; then
  report "baseline $BASE_BIN, scrapinghub per page:" base readability "$pages"
  report "this build / baseline, scrapinghub per page:" sieve base "$pages"
  report "this build / baseline, sieve --version:" version baseversion "$TINY_RUNS"
fi
