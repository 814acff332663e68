#!/usr/bin/env bash
# ensure-tools.sh TOOL... — make sure each Debian-packaged tool the tests need
# is installed: install it with apt-get when running as root, otherwise stop
# with the command to run. Tool names are Debian package names; PKG:COMMAND
# names a package whose command is named differently (poppler-utils:pdftotext);
# PKG:/PATH names a package that installs that file (a Tesseract language).
set -euo pipefail
missing=()
for t in "$@"; do
  c=${t#*:}
  case $c in
    /*) [ -e "$c" ] || missing+=("${t%%:*}") ;;
    *) command -v "$c" >/dev/null 2>&1 || missing+=("${t%%:*}") ;;
  esac
done
[ ${#missing[@]} -eq 0 ] && exit 0
if [ "$(id -u)" -eq 0 ] && command -v apt-get >/dev/null 2>&1; then
  echo "installing ${missing[*]} with apt-get (waiting up to 10 minutes for another apt or dpkg to finish)" >&2
  log=$(mktemp)
  lock=(-o DPkg::Lock::Timeout=600)
  if DEBIAN_FRONTEND=noninteractive apt-get "${lock[@]}" update -qq >"$log" 2>&1 &&
     DEBIAN_FRONTEND=noninteractive apt-get "${lock[@]}" install -y -qq "${missing[@]}" >>"$log" 2>&1; then
    rm -f "$log"
    exit 0
  fi
  cat "$log" >&2
  rm -f "$log"
  echo "apt-get could not install ${missing[*]}" >&2
  exit 1
fi
echo "missing: ${missing[*]}. Install with: sudo apt-get install -y ${missing[*]}" >&2
exit 1
