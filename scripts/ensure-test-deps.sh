#!/usr/bin/env bash
# Installs what the test suite needs beyond npm packages, on a fresh Debian machine:
# Chromium for the browser tests (Playwright cannot download its own browser here).
# Idempotent: does nothing when everything is present.
set -euo pipefail

missing=()
command -v chromium >/dev/null 2>&1 || [ -x /usr/bin/chromium ] || missing+=(chromium)

if [ ${#missing[@]} -eq 0 ]; then
  exit 0
fi

if [ "$(id -u)" -ne 0 ]; then
  echo "The tests need these Debian packages, which are missing: ${missing[*]}" >&2
  echo "Install them with: sudo apt-get install -y ${missing[*]}" >&2
  exit 1
fi

echo "Installing ${missing[*]} from Debian's packages..."
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
echo "Installed ${missing[*]}."
