#!/usr/bin/env bash
# Installs what Remat Explorer needs on Debian 12 (as root). Safe to run again.
set -euo pipefail
packages=(
  build-essential cmake pkg-config ccache lld
  qt6-base-dev qt6-svg-dev libgl-dev
  libgraphviz-dev graphviz libboost-graph-dev rapidjson-dev libsimdjson-dev
  libqcustomplot-dev libqcustomplot2.1-qt6
  xvfb xauth
  clang-14 libclang-rt-14-dev clang-format
  python3-torch python3-networkx
)
missing=()
for p in "${packages[@]}"; do
  dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p")
done
if ((${#missing[@]})); then
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi
