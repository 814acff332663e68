#!/bin/sh
# Crawl sites on one machine: the seeds on stdin (or as arguments), every
# page once, politely (one capturer: --delay, --per-host, Crawl-delay and
# robots.txt hold for the whole crawl), resumably (run it again after an
# interruption), with progress on stderr. Extra arguments go to sieve crawl.
#
#   pipelines/crawl.sh --delay 1s --out artifacts https://example.com/ > pages.jsonl
#
# The sieve binaries come from PATH, else from this checkout's bin/ (make build).
set -eu
command -v sieve >/dev/null 2>&1 || PATH="$(cd "$(dirname "$0")/.." && pwd)/bin:$PATH"
exec sieve crawl "$@"
