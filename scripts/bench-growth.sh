#!/usr/bin/env bash
# bench-growth.sh — memory and time against page size (issue 17): pages of
# 10k, 100k, 300k and 1M tiny paragraphs (<p>x</p>) and 1M inline elements
# (<i>x</i>) through `sieve distill --tier static`, with and without the
# evidence bundle. Prints wall time, CPU time and peak RSS per page, and the
# growth from 100k to 1M paragraphs (the bar: ≤ 12× in time and memory,
# the 1M page under 1 GB and 60 s).
#
# The machine is shared: every run is watched and killed when its RSS
# passes CAP_MB (default 3072), and reported as "killed". SIZES overrides
# the paragraph counts (e.g. SIZES="10000 100000" for a quick look);
# INLINE=0 leaves out the inline page.
set -euo pipefail
cd "$(dirname "$0")/.."
BIN=${BIN:-$PWD/bin}
CAP_MB=${CAP_MB:-3072}
SIZES=${SIZES:-10000 100000 300000 1000000}
INLINE=${INLINE:-1}
scripts/ensure-tools.sh time >/dev/null

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

page() { # page FILE UNIT N
  python3 -c 'import sys; sys.stdout.write("<html><body><main>" + sys.argv[1] * int(sys.argv[2]) + "</main></body></html>\n")' "$2" "$3" >"$1"
}

# watch PID: kill PID's process group member when its RSS passes CAP_MB.
watch() {
  local pid=$1 rss
  while kill -0 "$pid" 2>/dev/null; do
    for p in $(pgrep -P "$pid" 2>/dev/null) "$pid"; do
      rss=$(awk '/^VmRSS/ {print $2}' "/proc/$p/status" 2>/dev/null || echo 0)
      if [ "${rss:-0}" -gt $((CAP_MB * 1024)) ]; then
        kill -9 "$p" 2>/dev/null || true
        : >"$work/killed"
      fi
    done
    sleep 0.2
  done
}

# one LABEL FILE EVIDENCE: prints "label evidence wall cpu rss_mb outcome"
one() {
  local label=$1 file=$2 ev=$3 flag=()
  [ "$ev" = no ] && flag=(--no-evidence)
  rm -rf "$work/out" "$work/killed"
  /usr/bin/time -f '%e %U %S %M' -o "$work/t" \
    "$BIN/sieve" distill --quiet --tier static --fail-on none "${flag[@]}" --out "$work/out" "$file" >"$work/line" 2>"$work/err" &
  local pid=$!
  watch "$pid" &
  local w=$!
  wait "$pid" || true
  wait "$w" 2>/dev/null || true
  if [ -e "$work/killed" ]; then
    printf '%-10s %-8s %8s %8s %9s  %s\n' "$label" "$ev" - - ">$CAP_MB" "killed at the cap"
    return
  fi
  local outcome
  outcome=$(grep -o '"outcome":"[a-z_]*"' "$work/line" | cut -d'"' -f4 || true)
  # time -o: the last line holds the figures (a killed child adds one before)
  read -r wall user sys rss < <(tail -1 "$work/t")
  awk -v l="$label" -v e="$ev" -v w="$wall" -v u="$user" -v s="$sys" -v r="$rss" -v o="${outcome:-error}" \
    'BEGIN { printf "%-10s %-8s %8.2f %8.2f %9.0f  %s\n", l, e, w, u + s, r / 1024, o }'
}

label() { # label N UNIT
  local n=$1 k
  if [ "$n" -ge 1000000 ] && [ $((n % 1000000)) -eq 0 ]; then k="$((n / 1000000))M"; else k="$((n / 1000))k"; fi
  echo "$k$2"
}

echo "bench-growth: sieve distill --tier static on generated pages; load average $(cut -d' ' -f1-3 /proc/loadavg), $(nproc) cores"
printf '%-10s %-8s %8s %8s %9s  %s\n' page evidence wall_s cpu_s rss_mb outcome
for n in $SIZES; do
  page "$work/p$n.html" '<p>x</p>' "$n"
  for ev in yes no; do one "$(label "$n" p)" "$work/p$n.html" "$ev" | tee -a "$work/table"; done
  rm -f "$work/p$n.html"
done
if [ "$INLINE" = 1 ]; then
  page "$work/i.html" '<i>x</i>' 1000000
  for ev in yes no; do one 1Mi "$work/i.html" "$ev" | tee -a "$work/table"; done
fi
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
# growth 100k → 1M paragraphs, where both were measured
awk '$1 == "100kp" { t[$2] = $3; m[$2] = $5 } $1 == "1Mp" { T[$2] = $3; M[$2] = $5 }
  END { for (e in t) if (e in T && T[e] != "-" && t[e] > 0)
    printf "growth 100k→1M paragraphs, evidence %s: time %.1f×, memory %.1f× (bar: ≤ 12×; 1M under 60 s and 1024 MB: %s)\n",
      e, T[e] / t[e], M[e] / m[e], (T[e] < 60 && M[e] < 1024) ? "met" : "NOT met" }' "$work/table"
