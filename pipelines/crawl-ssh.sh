#!/bin/sh
# Crawl over many machines with GNU parallel. The hosts of the crawl are cut
# into $SHARDS shards by a hash of the host name (sieve crawl --shard I/N),
# one job per shard, so every request to one host comes from one process:
# --delay, --per-host, robots.txt Crawl-delay and the robots.txt cache hold
# for the whole crawl however many machines run it. Each job crawls its
# shard into $OUT/shard-I (artifacts, state, and its lines in
# $OUT/shard-I/.pages.jsonl); parallel brings the directory back (--return)
# and, once the shard is finished, its lines to stdout: a shard's lines come
# out together when it ends, never from an attempt that failed.
#
#   SSHLOGIN=8/alice@m1,8/alice@m2,8/alice@m3 SHARDS=24 \
#   CRAWL_ARGS='--delay 1s' pipelines/crawl-ssh.sh < seeds.txt > pages.jsonl
#
# $SSHLOGIN   parallel's --sshlogin (default ":", this machine); JOBS/host as "J/login"
# $SHARDS     shards of hosts (default 4); more shards than job slots balances better
# $SIEVE      the sieve binary to ship, a path relative to the current directory
#             (default bin/static/sieve: `make static`, or
#             CGO_ENABLED=0 go build -o bin/static/ ./cmd/sieve); it goes out with
#             --basefile to the same relative path under each login's home
# $OUT        result directory, relative (default crawl)
# $JOBLOG     parallel's --joblog (default $OUT/joblog)
# $CRAWL_ARGS flags for sieve crawl (scope, delay, tier, …)
# $ROUND      a name for a new round over the same $OUT (a re-crawl): each shard
#             gets a fresh state, .crawl-round-$ROUND, and its own joblog and
#             pages file, and every line says what changed since the round before
#             ("change": new, unchanged, changed, gone, blocked_now;
#             docs/CRAWL.md#change-tracking). Changes are told against the
#             shard directory on the machine that runs the shard: give each
#             round the same SSHLOGIN, or the shards' directories, to compare.
#
# Resume: a failed job is run again (--retries, on another machine when
# there is one), and so are the unfinished shards when the same command is
# run again (--resume-failed skips the finished ones). A shard whose machine
# is still there resumes from its own state (no page lost, none read
# twice); a shard whose machine went away is crawled again from its start
# elsewhere. Lines reach stdout only from a finished shard (all of its
# attempts on that machine), so stdout has every page once, whichever
# machine died.
# $PARALLEL_SSH (GNU parallel's) sets the ssh command, e.g. a key or a port.
# With --scope site or any, links to hosts of another shard are listed in
# $OUT/shard-I/.crawl-I-of-N/foreign.tsv; feed them to a next round as seeds.
set -eu
SSHLOGIN=${SSHLOGIN:-:}
SHARDS=${SHARDS:-4}
SIEVE=${SIEVE:-bin/static/sieve}
OUT=${OUT:-crawl}
R=${ROUND:+-$ROUND}
JOBLOG=${JOBLOG:-$OUT/joblog$R}
STATE_ARG=
if [ -n "${ROUND:-}" ]; then STATE_ARG="--state $OUT/shard-{}/.crawl-round-$ROUND"; fi
case $SIEVE in /*) echo "crawl-ssh.sh: SIEVE must be a relative path (it is shipped to the same place under each login's home)" >&2; exit 2;; esac
case $OUT in /*) echo "crawl-ssh.sh: OUT must be a relative path (it is brought back with --return)" >&2; exit 2;; esac
[ -x "$SIEVE" ] || { echo "crawl-ssh.sh: no $SIEVE: run make static (or set SIEVE)" >&2; exit 2; }
mkdir -p "$OUT"
seeds=$OUT/seeds.txt
cat > "$seeds"
i=0
while [ "$i" -lt "$SHARDS" ]; do echo "$i"; i=$((i + 1)); done |
  parallel --will-cite --sshlogin "$SSHLOGIN" --basefile "$SIEVE" --basefile "$seeds" \
    --joblog "$JOBLOG" --resume-failed --retries 3 --return "$OUT/shard-{}" \
    "mkdir -p $OUT/shard-{} && $SIEVE crawl --quiet --fail-on none --shard {}/$SHARDS --out $OUT/shard-{} $STATE_ARG ${CRAWL_ARGS:-} < $seeds >> $OUT/shard-{}/.pages$R.jsonl && cat $OUT/shard-{}/.pages$R.jsonl"
