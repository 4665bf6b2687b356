#!/usr/bin/env bash
# Installs every system and npm dependency gpufleet needs. Idempotent: a second run installs nothing.
set -euo pipefail
cd "$(dirname "$0")/.."

packages=(
  cmake g++ make ninja-build pkg-config
  nlohmann-json3-dev catch2 libcli11-dev
  emscripten python3 zopfli
  clang libclang-rt-14-dev libbenchmark-dev
  chromium
)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done

# The machine image may ship Node.js (with npm) from its own package; only ask Debian when absent.
command -v node >/dev/null 2>&1 || missing+=(nodejs)
command -v npm >/dev/null 2>&1 || missing+=(npm)

if [ ${#missing[@]} -gt 0 ]; then
  echo "setup: installing ${missing[*]}"
  sudo_cmd=""
  [ "$(id -u)" -ne 0 ] && sudo_cmd="sudo"
  $sudo_cmd apt-get update
  DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y --no-install-recommends "${missing[@]}"
fi

if [ -f package-lock.json ]; then
  if [ ! -d node_modules ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
    npm ci --no-audit --no-fund
  fi
fi
