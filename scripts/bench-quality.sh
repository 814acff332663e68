#!/usr/bin/env bash
# bench-quality.sh: sieve's text mode and its Markdown (sieve-markdown:
# `sieve distill --format markdown` without the title line, Markdown syntax
# stripped as TestQualityMarkdown strips it) over the five main-content
# evaluation sets in ../shared/bench (scrapinghub, trafilatura-eval,
# cleaneval-dev, cleanportaleval, readability-tests), scored with
# ../shared/bench/score.py (F1, precision, recall with bootstrap standard
# deviations and 95% intervals; paired differences against sieve's text
# mode), plus pages/s of normalize+graph+text (and +markdown). With PEERS=1
# the Go peers (readeck go-readability v2, go-shiori go-readability,
# go-trafilatura with and without fallback) run on the same pages in the
# same process and are scored side by side. A summary table closes the run:
# text F1 per set for every system. docs/QUALITY.md says what the numbers
# mean and what they were last.
#
# The harness is bench/quality, a separate Go module, so that the peers
# never enter sieve's own go.mod. CAPTURES=DIR keeps the capture records
# between runs (the static tier's captures of local files do not vary).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
bench=${SIEVE_BENCH_DIR:-$root/../shared/bench}
bench=$(cd "$bench" && pwd) || { echo "bench-quality: evaluation sets not found (set SIEVE_BENCH_DIR)" >&2; exit 1; }
out=$root/.bench/quality
sets=(scrapinghub trafilatura-eval cleaneval-dev cleanportaleval readability-tests)
command -v python3 >/dev/null || { echo "bench-quality: needs python3 for score.py (apt-get install python3)" >&2; exit 1; }

args=(-out "$out" -sets "$(IFS=,; echo "${sets[*]}")")
[[ "${PEERS:-0}" == 1 ]] && args+=(-peers)
[[ -n "${CAPTURES:-}" ]] && args+=(-captures "$CAPTURES")
echo "# timing: capture excluded (I/O); one process, pages one after another"
(cd "$root/bench/quality" && SIEVE_BENCH_DIR="$bench" GOFLAGS=-mod=mod go run . "${args[@]}")

for set in "${sets[@]}"; do
  preds=()
  for d in "$out/$set"/*/; do
    name=$(basename "$d")
    if [[ "$name" == sieve ]]; then preds=(--pred "sieve=$d" "${preds[@]}"); else preds+=(--pred "$name=$d"); fi
  done
  echo
  echo "## $set"
  python3 "$bench/score.py" --gt "$bench/$set/ground_truth.json" "${preds[@]}" --diff --json "$out/$set.scores.json"
done

# One table: text F1 (recall) per set and system; and the issue-13 bar, the
# Markdown at least the text mode's F1 - 0.01.
echo
python3 - "$out" "${sets[@]}" <<'PY'
import json, os, sys
out, sets = sys.argv[1], sys.argv[2:]
res = {s: json.load(open(os.path.join(out, s + ".scores.json")))["results"] for s in sets}
systems = [n for n in res[sets[0]] if not n.startswith("_")]
print("| system | " + " | ".join(sets) + " |")
print("|---|" + "---|" * len(sets))
for n in systems:
    cells = [f"{res[s][n]['f1']:.3f} (R {res[s][n]['recall']:.3f})" if n in res[s] else "" for s in sets]
    print(f"| {n} | " + " | ".join(cells) + " |")
print()
for s in sets:
    t, m = res[s]["sieve"]["f1"], res[s]["sieve-markdown"]["f1"]
    print(f"{s}: text F1 {t:.3f}, markdown F1 {m:.3f} ({m - t:+.3f}; {'ok' if m >= t - 0.01 else 'BELOW'} the bar text - 0.01)")
PY
