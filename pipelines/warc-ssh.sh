#!/bin/sh
# Distil many WARC files over many machines with GNU parallel: one job per
# WARC file, each writing that file's pages as one shard (sieve distill
# --shard: $OUT/NAME.tar.gz and its index $OUT/NAME.index.jsonl, NAME the
# file's name without .warc.gz), brought back with --return. The list of
# WARC paths is stdin, one per line; stdout gets each shard's artifact lines
# (dir NAME.tar.gz#HOST/SLUG; error lines for corrupt records) of the
# files this run distilled, once each shard is here, never from an attempt
# that failed.
#
#   SSHLOGIN=2/alice@m1,2/alice@m2,2/alice@m3 \
#   pipelines/warc-ssh.sh < warcs.txt > artifacts.jsonl
#
# $SSHLOGIN      parallel's --sshlogin (default ":", this machine); JOBS/host as "J/login"
# $SIEVE         the sieve binary to ship, a path relative to the current directory
#                (default bin/static/sieve: `make static`); it goes out with
#                --basefile to the same relative path under each login's home
# $OUT           result directory, relative (default shards)
# $JOBLOG        parallel's --joblog (default $OUT/joblog)
# $SHARED        1: the WARC paths are readable on every worker as they are
#                (a shared file system); otherwise each file is sent to its
#                job's worker (--transferfile, relative paths) and removed
#                there after (--cleanup)
# $DISTILL_ARGS  more flags for sieve distill (--no-evidence, --blobs, …)
#
# Resume: a job whose worker dies is run again on another (--retries), and
# the same command run again runs only the WARC files without a finished
# shard (--joblog, --resume-failed; then any file whose shard did not come
# back, its worker gone after the job, goes again). A shard is renamed into place only
# when its file was read to the end, so a killed attempt leaves no shard
# that looks whole, and stdout has every page once. A WARC file whose
# records failed (a corrupt record: an error line) counts as done: its
# other pages are in the shard. Shard names come from the file names:
# two WARC files of one name in different directories need two runs.
# $PARALLEL_SSH (GNU parallel's) sets the ssh command, e.g. a key or a port.
set -eu
SSHLOGIN=${SSHLOGIN:-:}
SIEVE=${SIEVE:-bin/static/sieve}
OUT=${OUT:-shards}
JOBLOG=${JOBLOG:-$OUT/joblog}
case $SIEVE in /*) echo "warc-ssh.sh: SIEVE must be a relative path (it is shipped to the same place under each login's home)" >&2; exit 2;; esac
case $OUT in /*) echo "warc-ssh.sh: OUT must be a relative path (the shards are brought back with --return)" >&2; exit 2;; esac
[ -x "$SIEVE" ] || { echo "warc-ssh.sh: no $SIEVE: run make static (or set SIEVE)" >&2; exit 2; }
mkdir -p "$OUT"
# NAME: the file name without its directory and .warc or .warc.gz.
NAME='{= s:.*/::; s:\.warc(\.gz)?$:: =}'
TRANSFER="--transferfile {} --cleanup"
if [ "${SHARED:-}" = 1 ]; then TRANSFER=; fi
list=$OUT/.warcs.$$
trap 'rm -f "$list" "$list".*' EXIT
cat > "$list"
name() { b=${1##*/}; b=${b%.gz}; echo "${b%.warc}"; }
# have FILE: its shard and its lines are here.
have() { n=$(name "$1"); [ -f "$OUT/$n.tar.gz" ] && [ -f "$OUT/$n.index.jsonl" ] && [ -f "$OUT/$n.jsonl" ]; }
missing() { while IFS= read -r f; do have "$f" || printf '%s\n' "$f"; done < "$list"; }
missing > "$list.run" # the files this run distils, and prints
# Exit 1 is a finished file with some error records; anything else failed.
# shellcheck disable=SC2086 # $TRANSFER is two flags or none
distil() {
  parallel --will-cite --sshlogin "$SSHLOGIN" --basefile "$SIEVE" $TRANSFER \
    --return "$OUT/$NAME.tar.gz" --return "$OUT/$NAME.index.jsonl" --return "$OUT/$NAME.jsonl" \
    --retries 3 "$@" \
    "mkdir -p $OUT && { $SIEVE distill --quiet --fail-on none --shard $OUT/$NAME ${DISTILL_ARGS:-} {} > $OUT/$NAME.jsonl; [ \$? -le 1 ]; }"
}
distil --joblog "$JOBLOG" --resume-failed < "$list" || true
# A worker can die after its job ended and before --return brought the
# shard back: parallel counts the job as done, so those files go again.
for round in 1 2 3; do
  missing > "$list.again"
  [ -s "$list.again" ] || break
  echo "warc-ssh.sh: $(wc -l < "$list.again") files without their shard here: again (round $round)" >&2
  distil --joblog "$JOBLOG.again-$round" < "$list.again" || true
done
status=0
while IFS= read -r f; do
  if have "$f"; then cat "$OUT/$(name "$f").jsonl"; else echo "warc-ssh.sh: $f: no shard" >&2; status=1; fi
done < "$list.run"
exit $status
