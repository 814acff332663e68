#!/bin/sh
# A batch run with xargs -P: $N targets per pipe, $JOBS pipes at once. Each
# pipe's lines stay in order, but pipes interleave: join on "url" when the
# order matters. Flags for sieve-capture go in $CAPTURE_ARGS; $BLOBS names a
# blob store both the capture and the bundles use (--blobs: the source bytes
# go into each artifact's evidence/).
#
#   JOBS=4 N=20 pipelines/xargs.sh < urls.txt > artifacts.jsonl
#
# The last stage is sieve-frontier settle, sieve-render's drop-in for batches
# that are run again: an unchanged page is not rewritten, and a failed
# re-read never replaces a good artifact (the failure goes beside it); every
# line says what the page is against the artifact found ("change": new,
# unchanged, changed with the earlier read in previous/ and diff.json, gone
# or blocked_now: docs/CRAWL.md#change-tracking).
set -eu
command -v sieve-capture >/dev/null 2>&1 || PATH="$(cd "$(dirname "$0")/.." && pwd)/bin:$PATH"
OUT=${OUT:-artifacts}
JOBS=${JOBS:-4}
N=${N:-20}
export OUT CAPTURE_ARGS="${CAPTURE_ARGS:-}" BLOBS="${BLOBS:-}"
xargs -P "$JOBS" -n "$N" sh -c '
  printf "%s\n" "$@" | sieve-capture $CAPTURE_ARGS ${BLOBS:+--blobs "$BLOBS"} | sieve-normalize | sieve-graph | sieve-frontier settle ${BLOBS:+--blobs "$BLOBS"} --out "$OUT"
' sh
