#!/bin/sh
# The four-stage static pipe: URLs or file paths on stdin, one artifact
# directory per target under $OUT (default ./artifacts), one JSONL line per
# target on stdout. Extra arguments go to sieve-capture.
#
#   pipelines/static.sh --allow-private < urls.txt
set -eu
command -v sieve-capture >/dev/null 2>&1 || PATH="$(cd "$(dirname "$0")/.." && pwd)/bin:$PATH"
OUT=${OUT:-artifacts}
sieve-capture "$@" | sieve-normalize | sieve-graph | sieve-render --out "$OUT"
