#!/usr/bin/env bash
# npm-tool.sh DIR PACKAGE VERSION [EXTRA...]: install PACKAGE@VERSION (and
# the EXTRA packages, each name@version, beside it) into DIR (a folder under
# .tools/) unless exactly that version is there already. Used by the
# Makefile for the agent CLIs the end-to-end tests drive.
set -euo pipefail
dir=$1 pkg=$2 version=$3
shift 3
manifest="$dir/node_modules/$pkg/package.json"
if [ -f "$manifest" ] && node -e 'process.exit(require(process.argv[1]).version === process.argv[2] ? 0 : 1)' "$(realpath "$manifest")" "$version"; then
  exit 0
fi
echo "installing $pkg@$version into $dir"
mkdir -p "$dir"
npm install --no-audit --no-fund --no-save --prefix "$dir" "$pkg@$version" "$@"
