#!/usr/bin/env bash
# bench-quality.sh: sieve's text mode over the two main-content evaluation
# sets in ../shared/bench, scored with ../shared/bench/score.py (F1,
# precision, recall with bootstrap standard deviations and 95% intervals),
# plus pages/s of normalize+graph+text. With PEERS=1 the Go peers
# (readeck go-readability v2, go-trafilatura with and without fallback) run
# on the same pages in the same process and are scored side by side, with
# paired-bootstrap differences against sieve.
#
# The harness is bench/quality, a separate Go module, so that the peers
# never enter sieve's own go.mod.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
bench=${SIEVE_BENCH_DIR:-$root/../shared/bench}
bench=$(cd "$bench" && pwd) || { echo "bench-quality: evaluation sets not found (set SIEVE_BENCH_DIR)" >&2; exit 1; }
out=$root/.bench/quality
command -v python3 >/dev/null || { echo "bench-quality: needs python3 for score.py (apt-get install python3)" >&2; exit 1; }

args=(-out "$out")
[[ "${PEERS:-0}" == 1 ]] && args+=(-peers)
echo "# timing: capture excluded (I/O); one process, pages one after another"
(cd "$root/bench/quality" && SIEVE_BENCH_DIR="$bench" GOFLAGS=-mod=mod go run . "${args[@]}")

for set in scrapinghub trafilatura-eval; do
  preds=()
  for d in "$out/$set"/*/; do
    name=$(basename "$d")
    if [[ "$name" == sieve ]]; then preds=(--pred "sieve=$d" "${preds[@]}"); else preds+=(--pred "$name=$d"); fi
  done
  echo
  python3 "$bench/score.py" --gt "$bench/$set/ground_truth.json" "${preds[@]}" --diff --json "$out/$set.scores.json"
done
