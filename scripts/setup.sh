#!/usr/bin/env bash
# Installs the Debian packages invert builds with, only those missing.
# Idempotent and quiet when everything is present.
set -euo pipefail

packages=(
  build-essential cmake pkg-config
  libabsl-dev libxxhash-dev libicu-dev libsimdjson-dev liblz4-dev libzstd-dev liburing-dev
  libgtest-dev libgmock-dev libbenchmark-dev
  libcli11-dev
  python3
)

missing=()
for p in "${packages[@]}"; do
  if ! [ "$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null)" = "install ok installed" ]; then
    missing+=("$p")
  fi
done
[ ${#missing[@]} -eq 0 ] && exit 0

echo "setup: installing ${missing[*]}" >&2
sudo=""
if [ "$(id -u)" -ne 0 ]; then sudo="sudo"; fi
export DEBIAN_FRONTEND=noninteractive
if ! $sudo apt-get install -y -q --no-install-recommends "${missing[@]}" >/dev/null; then
  $sudo apt-get update -q >/dev/null
  $sudo apt-get install -y -q --no-install-recommends "${missing[@]}" >/dev/null
fi
