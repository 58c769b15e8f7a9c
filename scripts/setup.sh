#!/usr/bin/env bash
# Installs the Debian packages playtest needs, only those that are missing.
# Safe to run repeatedly; needs root (or sudo) only when something is missing.
set -euo pipefail

packages=(
  g++ cmake ninja-build pkg-config make ccache
  nlohmann-json3-dev rapidjson-dev libcli11-dev libfmt-dev
  libgtest-dev libgmock-dev googletest libbenchmark-dev
  liblemon-dev coinor-libclp-dev libeigen3-dev libexpat1-dev libgmp-dev
  clang libclang-rt-14-dev python3
  redis-server mosquitto python3-paho-mqtt
  graphviz libkainjow-mustache-dev chromium
  help2man dpkg-dev python3-pip python3-setuptools python3-wheel python3-venv
)

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done

if [ ${#missing[@]} -eq 0 ]; then
  echo "setup: all ${#packages[@]} packages present"
  exit 0
fi

echo "setup: installing ${missing[*]}"
SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
# Packages with a service (redis-server, mosquitto) try to start it from their postinst and fail the install
# when that fails, as in a container without an init system. playtest's tests start their own
# server on a free loopback port, so forbid service starts during the install (policy-rc.d exit 101)
# unless the machine already has a policy of its own.
if [ ! -e /usr/sbin/policy-rc.d ]; then
  printf '#!/bin/sh\nexit 101\n' | $SUDO tee /usr/sbin/policy-rc.d >/dev/null
  $SUDO chmod 755 /usr/sbin/policy-rc.d
  trap '$SUDO rm -f /usr/sbin/policy-rc.d' EXIT
fi
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
