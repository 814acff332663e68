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
# Then stability: STAB_PAGES saved real pages from ../shared/bench plus a
# lazy-loading and a dialog page, read as local files (no network at all)
# STAB_RUNS times at --concurrency 4: how many pages gave the same outcome
# and block count in every run, and the peak tree memory against the
# documented --browser-memory-mb budget. CONCURRENCIES picks the levels
# ("1 2 4"); BASE_BIN, an earlier build's bin directory, is timed at
# --concurrency 1 in the same run for a before/after ratio.
set -euo pipefail
cd "$(dirname "$0")/.."
BIN=${BIN:-$PWD/bin}
GEN=${GEN:-30}
STAB_PAGES=${STAB_PAGES:-18}
STAB_RUNS=${STAB_RUNS:-5}
SHARED=${SHARED:-$PWD/../shared/bench}
CHROMIUM=${SIEVE_CHROMIUM:-/usr/bin/chromium}
scripts/ensure-tools.sh python3 >/dev/null
scripts/ensure-tools.sh jq >/dev/null
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

# capture C [BINDIR]: sieve-capture --tier render at concurrency C over the
# page set; prints "seconds rendered peak_rss_kb peak_pss_kb".
capture() {
  local c=$1 bin=${2:-$BIN} start end peak_rss=0 peak_pss=0 cpid m
  start=$(date +%s.%N)
  "$bin/sieve-capture" --tier render --allow-private --concurrency "$c" --per-host 8 \
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
for c in ${CONCURRENCIES:-1 2 4}; do
  read -r s rendered rss pss < <(capture "$c")
  secs[$c]=$s
  awk -v c="$c" -v s="$s" -v n="$pages" -v r="$rendered" -v rss="$rss" -v pss="$pss" 'BEGIN {
    printf "sieve-capture --tier render --concurrency %d: %5.2f pages/s (%d pages, %d rendered, %.1f s incl. browser start); peak tree memory: RSS sum %d MB, PSS sum %d MB\n",
      c, n / s, n, r, s, rss / 1024, pss / 1024 }'
done
dd=$(dumpdom)
ok=$(grep -lc '<body' "$work"/dd-*.html 2>/dev/null | wc -l)
awk -v d="$dd" -v n="$pages" -v ok="$ok" -v s1="${secs[1]:-0}" -v s4="${secs[4]:-0}" 'BEGIN {
  printf "chromium --headless --dump-dom, one browser per page: %5.2f pages/s (%d pages, %d dumped, %.1f s)\n", n / d, n, ok, d
  printf "capture overhead (time per page, sieve / dump-dom): %.2fx at --concurrency 1, %.2fx at --concurrency 4\n", s1 / d, s4 / d }'

# BASE_BIN, when set, is an earlier build timed at --concurrency 1 in the
# same run (before/after).
if [ -n "${BASE_BIN:-}" ]; then
  read -r bs _ _ _ < <(capture 1 "$BASE_BIN")
  awk -v b="$bs" -v s="${secs[1]:-0}" -v d="$dd" -v n="$pages" 'BEGIN {
    printf "baseline %s at --concurrency 1: %5.2f pages/s (%.1f s), %.2fx dump-dom; this build / baseline: %.2fx the time\n", ENVIRON["BASE_BIN"], n / b, b, b / d, s / b }'
fi

# stability: the same pages, STAB_RUNS times at --concurrency 4.
stab_pages() {
  local dir=$work/stab f n=0
  mkdir -p "$dir"
  if [ -d "$SHARED/scrapinghub/html" ]; then
    for f in $(ls "$SHARED/scrapinghub/html" | sort | head -n "$STAB_PAGES"); do
      n=$((n + 1))
      gunzip -c "$SHARED/scrapinghub/html/$f" >"$dir/${f%.gz}"
    done
  else
    echo "($SHARED/scrapinghub is missing: stability over the generated pages only)" >&2
    cp "$work"/pages/p*.html "$dir"/ 2>/dev/null || true
  fi
  cat >"$dir/lazy.html" <<'HTML'
<!doctype html><html><head><title>Feed</title></head><body><main><h1>Endless feed</h1><div id="feed"></div><div id="end" style="height:10px"></div></main><script>
let n = 0;
function more() { requestAnimationFrame(() => setTimeout(() => { for (let i = 0; i < 8 && n < 200; i++, n++) { const p = document.createElement("p"); p.style.height = "110px"; p.textContent = "Item " + n + " of the endless feed, with words enough to be a paragraph."; document.getElementById("feed").appendChild(p); } }, 50)); }
more();
new IntersectionObserver((es) => { if (es.some(e => e.isIntersecting)) more(); }).observe(document.getElementById("end"));
</script></body></html>
HTML
  cat >"$dir/dialog.html" <<'HTML'
<!doctype html><html><head><title>Dialogs</title></head><body><div id="app"></div><script>
alert("Welcome"); confirm("Accept cookies?");
document.getElementById("app").innerHTML = "<main><h1>After the dialogs</h1>" + "<p>Text written after the page's dialogs were answered, long enough to be a paragraph of an article.</p>".repeat(6) + "</main>";
</script></body></html>
HTML
  ls "$dir"/*.html >"$work/stab.paths"
}

stab_run() {
  local i=$1 cpid m peak=0
  "$BIN/sieve-capture" --tier render --concurrency 4 <"$work/stab.paths" >"$work/stab-cap-$i.jsonl" &
  cpid=$!
  while kill -0 "$cpid" 2>/dev/null; do
    m=$(tree_mem "$cpid")
    [ "${m#* }" -gt "$peak" ] && peak=${m#* }
    sleep 0.2
  done
  wait "$cpid" || true
  "$BIN/sieve-normalize" <"$work/stab-cap-$i.jsonl" | "$BIN/sieve-graph" |
    jq -r '[.url, .outcome.status, (.blocks | length), (.outcome.evidence[0] // "" | .[0:70])] | @tsv' >"$work/stab-$i.tsv" || true
  echo "$peak"
}

stab_pages
spages=$(wc -l <"$work/stab.paths")
budget=$("$BIN/sieve-capture" --help | sed -n 's/.*--browser-memory-mb value.*(default: \([0-9]*\)).*/\1/p')
speak=0
for i in $(seq 1 "$STAB_RUNS"); do
  p=$(stab_run "$i")
  [ "$p" -gt "$speak" ] && speak=$p
done
same=$(cat "$work"/stab-*.tsv | cut -f1-3 | sort | uniq -c | awk -v r="$STAB_RUNS" '$1 == r' | wc -l)
echo "stability: $same of $spages pages gave the same outcome and block count in all $STAB_RUNS runs at --concurrency 4 ($((spages - 2)) saved real pages as local files, a lazy-loading and a dialog page)"
if [ "$same" -ne "$spages" ]; then
  echo "pages that varied (url, outcome, blocks, first evidence; one line per distinct result):"
  cat "$work"/stab-*.tsv | sort | uniq -c | awk -v r="$STAB_RUNS" '$1 != r' | sed 's/^/  /'
fi
echo "peak tree memory at --concurrency 4 over the stability runs: PSS sum $((speak / 1024)) MB (budget --browser-memory-mb ${budget:-3072} MB)"
