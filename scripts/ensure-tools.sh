#!/usr/bin/env bash
# ensure-tools.sh TOOL... — make sure each Debian-packaged tool the tests need
# is installed: install it with apt-get when running as root, otherwise stop
# with the command to run. Tool names are Debian package names; PKG:COMMAND
# names a package whose command is named differently (poppler-utils:pdftotext).
set -euo pipefail
missing=()
for t in "$@"; do
  command -v "${t#*:}" >/dev/null 2>&1 || missing+=("${t%%:*}")
done
[ ${#missing[@]} -eq 0 ] && exit 0
if [ "$(id -u)" -eq 0 ] && command -v apt-get >/dev/null 2>&1; then
  echo "installing ${missing[*]} with apt-get" >&2
  apt-get update -qq >/dev/null
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
  exit 0
fi
echo "missing: ${missing[*]}. Install with: sudo apt-get install -y ${missing[*]}" >&2
exit 1
