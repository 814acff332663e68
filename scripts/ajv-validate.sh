#!/usr/bin/env bash
# ajv-validate.sh validates sieve's EEF examples and written artifacts with
# Ajv (npm), independently of the Go validator (scripts/ajv-validate.mjs
# says what it checks). Ajv is installed into a cache directory the first
# time; as root, a missing node/npm is installed with apt-get (Debian's npm
# package). When that or the install fails, it fails under CI=true and
# otherwise skips, loudly.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
cache=${AJV_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/sieve-ajv}

skip() {
  if [ "${CI:-}" = "true" ]; then
    echo "ajv-validate: FAILED: $1" >&2
    exit 1
  fi
  echo "WARNING: ajv-validate SKIPPED: $1 (the schemas were checked by the Go validator only)" >&2
  exit 0
}

# Debian's npm package brings nodejs; ensure-tools installs it as root.
if ! command -v node >/dev/null 2>&1 || ! command -v npm >/dev/null 2>&1; then
  "$root/scripts/ensure-tools.sh" npm >&2 || true
fi
command -v node >/dev/null 2>&1 || skip "node is not installed (apt-get install npm)"
if [ ! -f "$cache/node_modules/ajv/dist/2020.js" ] || [ ! -d "$cache/node_modules/ajv-formats" ]; then
  command -v npm >/dev/null 2>&1 || skip "npm is not installed"
  mkdir -p "$cache"
  npm install --prefix "$cache" --no-audit --no-fund --silent ajv@8 ajv-formats@3 >&2 \
    || skip "npm install ajv@8 ajv-formats@3 failed"
fi
exec node "$root/scripts/ajv-validate.mjs" "$root" "$cache/node_modules"
