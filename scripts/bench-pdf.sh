#!/usr/bin/env bash
# bench-pdf.sh — PDF throughput against poppler, on two documents: the
# bench report (64 chapters, 77 A4 pages, tagged, printed by Chromium from
# generated HTML: pdftest.LongHTML) and sample 009 of the shared corpus
# (../shared/bench/pdf-samples: a 117-page pdflatex book; skipped when the
# corpus is not there). Each is read by
#   sieve-capture | sieve-normalize | sieve-graph   (the piped stages)
#   sieve distill --format text                     (in process, render too)
#   pdftotext -bbox-layout                          (poppler)
# in RUNS interleaved rounds (one of each per round, after a warm-up that
# fills wazero's compilation cache), so that the machine's load hits all
# three alike. Per document it prints the median wall time and pages/s,
# the CPU seconds (user+sys, summed over the stages: steadier than wall
# time on a shared machine), the peak RSS of each process, and the ratio
# sieve/pdftotext in pages/s: the median of the per-round ratios. One
# first run with an empty compilation cache is shown too.
#
# Then, when ../shared/bench/pdf-real is there, how completely and in what
# order PDFs from other tools' test suites are read (see its README): the
# kreuzberg set (73 documents, NID / word F1; also over the 10 whose gold
# was not made with pdftotext) and docling-md (9, NID / TEDS / MHS), for
# sieve distill (text; Markdown for docling-md) beside pdftotext, and
# pypdf and mutool when installed, scored by the set's own scorers; a peer
# that is not installed shows the figures of the set's README (measured
# there with the same scorers), marked so. PDF_REAL_ONLY=1 skips the
# throughput part.
set -euo pipefail
cd "$(dirname "$0")/.."
BIN=${BIN:-$PWD/bin}
RUNS=${RUNS:-5}
OUT=${OUT:-$PWD/.bench/pdf}
BENCH_DIR=${SIEVE_BENCH_DIR:-$PWD/../shared/bench}
scripts/ensure-tools.sh time poppler-utils:pdftotext >/dev/null
mkdir -p "$OUT"
long=$OUT/long.pdf
if [ ! -s "$long" ]; then
  go run ./cmd/sievepdfgen -long "$long"
fi
docs=("$long")
book=$BENCH_DIR/pdf-samples/pdfs/009-pdflatex-geotopo/GeoTopo-komprimiert.pdf
if [ -s "$book" ]; then docs+=("$book"); else echo "sample 009 not found at $book: skipped" >&2; fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

calc() { awk "BEGIN { printf \"%.3f\", $1 }"; }
now() { date +%s.%N; }
# tsum FILE...: user+sys seconds summed over /usr/bin/time -f '%U %S %M' files
tsum() { cat "$@" | awk '{ s += $1 + $2 } END { printf "%.2f", s }'; }
mb() { awk '{ printf "%d", $3 / 1024 }' "$1"; }
median() { sort -g | awk '{ v[NR] = $1 } END { if (NR % 2) print v[(NR + 1) / 2]; else printf "%.3f\n", (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

pipe_once() { # DOC: one capture | normalize | graph run; prints wall seconds
  local t0 t1
  echo "$1" >"$work/targets"
  t0=$(now)
  /usr/bin/time -f '%U %S %M' -o "$work/c.t" "$BIN/sieve-capture" <"$work/targets" 2>/dev/null |
    /usr/bin/time -f '%U %S %M' -o "$work/n.t" "$BIN/sieve-normalize" 2>/dev/null |
    /usr/bin/time -f '%U %S %M' -o "$work/g.t" "$BIN/sieve-graph" >"$work/graph.jsonl" 2>/dev/null
  t1=$(now)
  grep -q '"record":"graph"' "$work/graph.jsonl" || { echo "sieve-graph wrote no graph record for $1" >&2; exit 1; }
  calc "$t1 - $t0"
}

distill_once() {
  local t0 t1
  t0=$(now)
  /usr/bin/time -f '%U %S %M' -o "$work/d.t" "$BIN/sieve" distill --quiet --format text "$1" >"$work/text.txt"
  t1=$(now)
  calc "$t1 - $t0"
}

poppler_once() {
  local t0 t1
  t0=$(now)
  /usr/bin/time -f '%U %S %M' -o "$work/p.t" pdftotext -bbox-layout "$1" "$work/bbox.html"
  t1=$(now)
  calc "$t1 - $t0"
}

[ -n "${PDF_REAL_ONLY:-}" ] && docs=()
printf '%-44s %7s %8s %8s  %s\n' run 'wall s' pages/s 'CPU s' 'peak RSS (MB)'
for doc in "${docs[@]}"; do
  pages=$(pdfinfo "$doc" | awk '/^Pages:/ {print $2}')
  # One run with an empty compilation cache: what a first use pays.
  tc=$(XDG_CACHE_HOME=$(mktemp -d -p "$work") pipe_once "$doc")
  cold=$(tsum "$work/c.t")
  pipe_once "$doc" >/dev/null
  : >"$work/rounds"
  for _ in $(seq "$RUNS"); do
    ts=$(pipe_once "$doc")
    td=$(distill_once "$doc")
    tp=$(poppler_once "$doc")
    echo "$ts $(tsum "$work/c.t" "$work/n.t" "$work/g.t") $(mb "$work/c.t") $(mb "$work/n.t") $(mb "$work/g.t") $td $(tsum "$work/d.t") $(mb "$work/d.t") $tp $(tsum "$work/p.t") $(mb "$work/p.t")" >>"$work/rounds"
  done
  col() { awk -v c="$1" '{ print $c }' "$work/rounds" | median; }
  colmax() { awk -v c="$1" '$c > m { m = $c } END { print m }' "$work/rounds"; }
  ts=$(col 1) cs=$(col 2) td=$(col 6) cd=$(col 7) tp=$(col 9) cp=$(col 10)
  rp=$(awk '{ print $9 / $1 }' "$work/rounds" | median)
  rd=$(awk '{ print $9 / $6 }' "$work/rounds" | median)
  printf '%s (%s pages, %s bytes), median of %s rounds\n' "$doc" "$pages" "$(stat -c %s "$doc")" "$RUNS"
  printf '  %-42s %7.2f %8.1f %8.2f  capture %s / normalize %s / graph %s\n' \
    'sieve-capture | sieve-normalize | sieve-graph' "$ts" "$(calc "$pages / $ts")" "$cs" "$(colmax 3)" "$(colmax 4)" "$(colmax 5)"
  printf '  %-42s %7.2f %8.1f %8.2f  %s\n' 'sieve distill --format text' "$td" "$(calc "$pages / $td")" "$cd" "$(colmax 8)"
  printf '  %-42s %7.2f %8.1f %8.2f  %s\n' 'pdftotext -bbox-layout' "$tp" "$(calc "$pages / $tp")" "$cp" "$(colmax 11)"
  printf '  %-42s %7.2f %8.1f %8.2f  capture\n' 'piped, first run (empty wasm compile cache)' "$tc" "$(calc "$pages / $tc")" "$cold"
  printf '  pages/s vs pdftotext (median of per-round ratios): piped %.2fx, distill %.2fx; CPU s: piped %.2fx, distill %.2fx of pdftotext\n' \
    "$rp" "$rd" "$(calc "$cs / $cp")" "$(calc "$cd / $cp")"
done

real=$BENCH_DIR/pdf-real
if [ ! -d "$real" ]; then
  echo "pdf-real not found at $real: quality figures skipped" >&2
  exit 0
fi
command -v python3 >/dev/null || { echo "python3 is needed to score pdf-real: skipped" >&2; exit 0; }
# extract NAME FUNC: runs FUNC IN OUT for every PDF of both sets into
# $work/real/NAME/<set>/<id>.txt (.md for docling-md, which its scorer reads)
extract() {
  local name=$1 fn=$2 set f id ext
  for set in kreuzberg docling-md; do
    mkdir -p "$work/real/$name/$set"
    ext=txt
    [ "$set" = docling-md ] && ext=md
    for f in "$real/$set"/pdfs/*.pdf; do
      id=$(basename "$f" .pdf)
      "$fn" "$f" "$work/real/$name/$set/$id.$ext" 2>/dev/null || true
    done
  done
}
sieve_out() { # Markdown for docling-md (headings and tables count there), else text
  local format=text
  case $2 in *.md) format=md ;; esac
  timeout 120 "$BIN/sieve" distill --quiet --format "$format" "$1" >"$2"
}
pdftotext_out() { timeout 120 pdftotext -enc UTF-8 "$1" "$2"; }
pypdf_out() { timeout 120 python3 -c 'import sys, pypdf; print("\n".join(p.extract_text() or "" for p in pypdf.PdfReader(sys.argv[1]).pages))' "$1" >"$2"; }
mutool_out() { timeout 120 mutool draw -q -F txt -o "$2" "$1"; }
names=(sieve pdftotext)
missing=()
extract sieve sieve_out
extract pdftotext pdftotext_out
if python3 -c 'import pypdf' 2>/dev/null; then extract pypdf pypdf_out; names+=(pypdf); else missing+=(pypdf); fi
if command -v mutool >/dev/null; then extract mutool mutool_out; names+=(mutool); else missing+=(mutool); fi
echo
echo "pdf-real ($real): how much and in what order (higher is better)"
printf '  %-10s %-28s %-28s %s\n' system 'kreuzberg 73: NID / word F1' 'independent 10: NID / F1' 'docling-md 9: NID / TEDS / MHS'
# readme_row NAME: a peer's row of the set's README table (measured there
# with the same scorers), for a peer that is not installed here.
readme_row() {
  awk -F'|' -v n="$1" '{ for (k = 2; k <= 5; k++) gsub(/^ +| +$/, "", $k) } $2 == n { print $3 "|" $4 "|" $5; exit }' "$real/README.md"
}
for n in "${names[@]}"; do
  k=$(python3 "$real/score_text.py" --gold "$real/kreuzberg/gold" --pred "$n=$work/real/$n/kreuzberg" | awk -v n="$n" '$1 == n { print $3 " / " $6 }')
  i=$(python3 "$real/score_text.py" --gold "$real/kreuzberg/gold" --pred "$n=$work/real/$n/kreuzberg" --ids "$real/kreuzberg/INDEPENDENT.txt" | awk -v n="$n" '$1 == n { print $3 " / " $6 }')
  d=-
  if python3 "$real/score_pdf.py" --gt "$real/docling-md/gold" --pred "$work/real/$n/docling-md" --out "$work/real/$n.json" --quiet >/dev/null 2>&1; then
    d=$(python3 -c 'import json, sys; s = json.load(open(sys.argv[1]))["score"]; f = lambda k: "%.3f" % s[k] if s.get(k) is not None else "-"; print(f("nid_mean"), "/", f("teds_mean"), "/", f("mhs_mean"))' "$work/real/$n.json")
  fi
  printf '  %-10s %-28s %-28s %s\n' "$n" "$k" "$i" "$d"
done
for n in "${missing[@]}"; do
  case $n in mutool) key='mutool draw -F txt' ;; pypdf) key='pypdf (library)' ;; esac
  row=$(readme_row "$key")
  [ -n "$row" ] || continue
  IFS='|' read -r k i d <<<"$row"
  printf '  %-10s %-28s %-28s %s   (not installed: figures from pdf-real/README.md)\n' "$n" "$k" "$i" "$d"
done
