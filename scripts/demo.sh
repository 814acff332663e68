#!/usr/bin/env bash
# demo.sh — serve the bundled sample site on 127.0.0.1, distill every page
# of it into ./artifacts, and say where to look. Run through `make demo`.
set -euo pipefail
cd "$(dirname "$0")/.."
BIN=${BIN:-$PWD/bin}
OUT=${OUT:-$PWD/artifacts}
chromium=${SIEVE_CHROMIUM:-/usr/bin/chromium}
if ! command -v "$chromium" >/dev/null 2>&1; then
  echo "WARNING: Chromium is missing ($chromium): the render tier cannot run, so the script-built" >&2
  echo "         page (/app) reads as spa_shell. Install it with: apt-get install chromium" >&2
  echo >&2
fi
tmp=$(mktemp -d)
trap 'kill "$server" 2>/dev/null || true; rm -rf "$tmp"' EXIT

"$BIN/sieve-sample" --urls "$tmp/urls.txt" >"$tmp/server.log" 2>&1 &
server=$!
for _ in $(seq 100); do [ -s "$tmp/urls.txt" ] && break; sleep 0.05; done
[ -s "$tmp/urls.txt" ] || { echo "the sample site did not start:"; cat "$tmp/server.log"; exit 1; }
head -n1 "$tmp/server.log"

# The sample site lives on loopback, which sieve refuses unless told.
# Some sample pages are blocked or walled on purpose: their exit status (13)
# is expected here, and their count is on stderr.
"$BIN/sieve" distill --allow-private --out "$OUT" <"$tmp/urls.txt" >"$tmp/artifacts.jsonl" || true

echo
printf '%-19s %-20s %s\n' OUTCOME URL ARTIFACT
while IFS= read -r line; do
  jq -r '[.outcome // ("error: " + .error), (.url | sub("^https?://[^/]+"; "")), (.dir // "-")] | @tsv' <<<"$line" |
    awk -F'\t' '{ printf "%-19s %-20s %s\n", $1, $2, $3 }'
done <"$tmp/artifacts.jsonl"
echo
echo "Artifacts are in $OUT: open any index.md (what an agent reads), index.html (for a person),"
echo "manifest.json (outcome first) or content.json (the whole graph, latent[] included)."
echo
echo "Next, try (offline):"
echo "  $BIN/sieve-sample --addr 127.0.0.1:8765 &                       # the sample site again, on a port you choose"
echo "  $BIN/sieve distill --allow-addr 127.0.0.1:8765 --format md http://127.0.0.1:8765/article.html  # a served page as Markdown"
echo "  $BIN/sieve distill --format md --header internal/sample/site/docs.html  # a saved page, with its outcome"
echo "  make install PREFIX=~/.local && man sieve                       # the binaries, man pages, completions"
