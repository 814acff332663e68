#!/usr/bin/env bash
# bench-render.sh — the render tier on a local page set: the sample site's
# HTML pages plus GEN generated ones (articles, hydrating apps, lazy lists),
# all served on 127.0.0.1. Prints render-tier pages/s of sieve-capture
# --tier render at --concurrency 1, 2 and 4; the same pages through
# `chromium --headless --dump-dom` (one browser per page, load event only)
# in the same run, and sieve's time per page as a ratio of it; and the peak
# memory of sieve-capture's whole process tree (itself and every Chromium
# process under it), sampled every 200 ms: summed RSS (shared pages counted
# once per process, an upper bound) and summed PSS (shared pages split).
set -euo pipefail
cd "$(dirname "$0")/.."
BIN=${BIN:-$PWD/bin}
GEN=${GEN:-30}
CHROMIUM=${SIEVE_CHROMIUM:-/usr/bin/chromium}
scripts/ensure-tools.sh python3 >/dev/null
[ -x "$CHROMIUM" ] || scripts/ensure-tools.sh chromium >/dev/null

work=$(mktemp -d)
pids=()
cleanup() {
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
  rm -rf "$work"
}
trap cleanup EXIT

# generate writes GEN pages: a third each of plain articles, apps that
# hydrate 100 ms after load, and long pages that append items when scrolled.
generate() {
  local dir=$work/pages para i
  mkdir -p "$dir"
  para="Sieve reads this paragraph as a person's browser shows it. It has enough words to be a paragraph of an article, and the page has several of them so that the reading is not thin."
  for i in $(seq 1 "$GEN"); do
    case $((i % 3)) in
      0) { printf '<!doctype html><html lang="en"><head><title>Article %d</title></head><body><main><h1>Article %d</h1>' "$i" "$i"
           for _ in 1 2 3 4 5 6; do printf '<p>%s</p>' "$para"; done
           printf '</main></body></html>\n'; } >"$dir/p$i.html" ;;
      1) printf '<!doctype html><html lang="en"><head><title>App %d</title><script>addEventListener("load", () => setTimeout(() => { document.getElementById("root").innerHTML = "<main><h1>App %d</h1>" + "<p>%s</p>".repeat(5) + "</main>"; }, 100));</script></head><body><div id="root"></div></body></html>\n' \
           "$i" "$i" "$para" >"$dir/p$i.html" ;;
      2) printf '<!doctype html><html lang="en"><head><title>Feed %d</title></head><body><main><h1>Feed %d</h1><div id="feed">%s</div><div id="more">loading</div></main><script>let n = 0; new IntersectionObserver((e) => { if (e[0].isIntersecting && n < 3) { n++; for (let k = 0; k < 5; k++) document.getElementById("feed").insertAdjacentHTML("beforeend", "<p style=\\"height:300px\\">Item " + n + "." + k + " %s</p>"); } }).observe(document.getElementById("more"));</script></body></html>\n' \
           "$i" "$i" "$(for _ in 1 2 3 4; do printf '<p style="height:300px">%s</p>' "$para"; done)" "$para" >"$dir/p$i.html" ;;
    esac
  done
}

# serve starts the sample site and a file server for the generated pages,
# and writes every URL of the page set to $work/urls.
serve() {
  "$BIN/sieve-sample" --addr 127.0.0.1:0 --urls "$work/sample.urls" >/dev/null &
  pids+=($!)
  (cd "$work/pages" && exec python3 -u -m http.server 0 --bind 127.0.0.1 >"$work/http.log" 2>&1) &
  pids+=($!)
  for _ in $(seq 100); do
    [ -s "$work/sample.urls" ] && grep -q 'port' "$work/http.log" 2>/dev/null && break
    sleep 0.1
  done
  local port
  port=$(sed -n 's/.*port \([0-9]*\).*/\1/p' "$work/http.log" | head -n1)
  [ -n "$port" ] || { echo "the page server did not start" >&2; exit 1; }
  # the sample site's HTML pages (not its robots-disallowed or text ones)
  grep -v -e '/private/' -e '\.txt$' "$work/sample.urls" >"$work/urls"
  for i in $(seq 1 "$GEN"); do echo "http://127.0.0.1:$port/p$i.html"; done >>"$work/urls"
}

# tree_mem PID: "RSS_KB PSS_KB" summed over PID and its descendants (bash
# builtins only, so sampling takes little of the CPU being measured).
tree_mem() {
  local root=$1 f line rest pid ppid
  declare -A parent=()
  for f in /proc/[0-9]*/stat; do
    read -r line 2>/dev/null <"$f" || continue
    pid=${line%% *}
    rest=${line##*) }
    read -r _ ppid _ <<<"$rest"
    parent[$pid]=$ppid
  done
  local rss=0 pss=0 p q k v
  for p in "${!parent[@]}"; do
    q=$p
    while [ "$q" -gt 1 ] && [ "$q" != "$root" ]; do q=${parent[$q]:-0}; done
    [ "$q" = "$root" ] || continue
    while read -r k v _; do
      [ "$k" = "VmRSS:" ] && rss=$((rss + v))
    done 2>/dev/null <"/proc/$p/status" || true
    while read -r k v _; do
      [ "$k" = "Pss:" ] && pss=$((pss + v))
    done 2>/dev/null <"/proc/$p/smaps_rollup" || true
  done
  echo "$rss $pss"
}

# capture C: sieve-capture --tier render at concurrency C over the page
# set; prints "seconds rendered peak_rss_kb peak_pss_kb".
capture() {
  local c=$1 start end peak_rss=0 peak_pss=0 cpid m
  start=$(date +%s.%N)
  "$BIN/sieve-capture" --tier render --allow-private --concurrency "$c" --per-host 8 \
    <"$work/urls" >"$work/cap-$c.jsonl" &
  cpid=$!
  while kill -0 "$cpid" 2>/dev/null; do
    m=$(tree_mem "$cpid")
    [ "${m% *}" -gt "$peak_rss" ] && peak_rss=${m% *}
    [ "${m#* }" -gt "$peak_pss" ] && peak_pss=${m#* }
    sleep 0.2
  done
  wait "$cpid"
  end=$(date +%s.%N)
  echo "$(awk -v s="$start" -v e="$end" 'BEGIN { printf "%.2f", e - s }') $(grep -c '"tier":"render"' "$work/cap-$c.jsonl") $peak_rss $peak_pss"
}

# dumpdom: chromium --headless --dump-dom per page, one after another, with
# the flags sieve gives Chromium; prints seconds.
dumpdom() {
  local start end u n=0
  start=$(date +%s.%N)
  while read -r u; do
    n=$((n + 1))
    "$CHROMIUM" --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
      --disable-background-networking --disable-component-update --disable-sync \
      --disable-dev-shm-usage --disable-breakpad --hide-scrollbars --mute-audio \
      --user-data-dir="$work/dd-profile" --dump-dom "$u" >"$work/dd-$n.html" 2>/dev/null || true
  done <"$work/urls"
  end=$(date +%s.%N)
  awk -v s="$start" -v e="$end" 'BEGIN { printf "%.2f", e - s }'
}

generate
serve
pages=$(wc -l <"$work/urls")
echo "render tier over $pages local pages ($((pages - GEN)) sample-site pages + $GEN generated), $(nproc) cores, $("$CHROMIUM" --version 2>/dev/null | head -n1)"
declare -A secs=()
for c in 1 2 4; do
  read -r s rendered rss pss < <(capture "$c")
  secs[$c]=$s
  awk -v c="$c" -v s="$s" -v n="$pages" -v r="$rendered" -v rss="$rss" -v pss="$pss" 'BEGIN {
    printf "sieve-capture --tier render --concurrency %d: %5.2f pages/s (%d pages, %d rendered, %.1f s incl. browser start); peak tree memory: RSS sum %d MB, PSS sum %d MB\n",
      c, n / s, n, r, s, rss / 1024, pss / 1024 }'
done
dd=$(dumpdom)
ok=$(grep -lc '<body' "$work"/dd-*.html 2>/dev/null | wc -l)
awk -v d="$dd" -v n="$pages" -v ok="$ok" -v s1="${secs[1]}" -v s4="${secs[4]}" 'BEGIN {
  printf "chromium --headless --dump-dom, one browser per page: %5.2f pages/s (%d pages, %d dumped, %.1f s)\n", n / d, n, ok, d
  printf "capture overhead (time per page, sieve / dump-dom): %.2fx at --concurrency 1, %.2fx at --concurrency 4\n", s1 / d, s4 / d }'
