#!/bin/sh
# A batch run with GNU parallel: the target list on stdin is cut into blocks
# of $N lines, each block runs through its own four-stage pipe, $JOBS pipes
# at once, and --keep-order keeps the output lines in input order. Flags for
# sieve-capture go in $CAPTURE_ARGS; $BLOBS names a blob store both the
# capture and the bundles use (--blobs: the source bytes go into each
# artifact's evidence/). Add --sshlogin to the parallel line to
# spread the blocks over hosts that have the sieve binaries on their PATH.
#
#   JOBS=4 N=50 CAPTURE_ARGS=--ignore-robots pipelines/parallel.sh < urls.txt > artifacts.jsonl
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
N=${N:-50}
BLOBS_ARG=
if [ -n "${BLOBS:-}" ]; then BLOBS_ARG="--blobs '$BLOBS'"; fi
parallel --will-cite --pipe --keep-order -N "$N" -j "$JOBS" \
  "sieve-capture ${CAPTURE_ARGS:-} $BLOBS_ARG | sieve-normalize | sieve-graph | sieve-frontier settle $BLOBS_ARG --out '$OUT'"
