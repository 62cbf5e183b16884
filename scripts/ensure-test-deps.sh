#!/usr/bin/env bash
# Installs what the test suite needs beyond npm packages, on a fresh Debian machine:
# Chromium for the browser tests (Playwright cannot download its own browser here), and Podman as
# the Docker Engine API for the container tests (no registry is reachable, so their image is built
# here from busybox-static). Idempotent: does nothing when everything is present.
set -euo pipefail

missing=()
command -v chromium >/dev/null 2>&1 || [ -x /usr/bin/chromium ] || missing+=(chromium)
command -v podman >/dev/null 2>&1 || missing+=(podman)
command -v runc >/dev/null 2>&1 || missing+=(runc)
dpkg-query -W -f='${Status}' busybox-static 2>/dev/null | grep -q 'ok installed' || missing+=(busybox-static)
# tests/unit/appliance.test.ts runs shellcheck on scripts/*.sh.
command -v shellcheck >/dev/null 2>&1 || missing+=(shellcheck)
# The Wyoming speech-to-text simulator (tests/fixtures/wyoming-stt-sim.ts) recognises with pocketsphinx.
command -v pocketsphinx_continuous >/dev/null 2>&1 || missing+=(pocketsphinx)
[ -d /usr/share/pocketsphinx/model/en-us ] || missing+=(pocketsphinx-en-us)
# The wake-word and audio tests make their recordings with espeak-ng and measure or alter them with sox.
command -v espeak-ng >/dev/null 2>&1 || missing+=(espeak-ng)
command -v sox >/dev/null 2>&1 || missing+=(sox)
# The VPN tests (issue 17) run real WireGuard in network namespaces: wg and ip from wireguard-tools
# and iproute2, and wireguard-go where the kernel has no WireGuard module (as on this CI kernel).
command -v wg >/dev/null 2>&1 || missing+=(wireguard-tools)
command -v wireguard-go >/dev/null 2>&1 || missing+=(wireguard-go)
command -v ip >/dev/null 2>&1 || missing+=(iproute2)
command -v ping >/dev/null 2>&1 || missing+=(iputils-ping)
# The network tools (tests/integration/network-tools.test.ts) run ping (above) and tracepath against loopback.
command -v tracepath >/dev/null 2>&1 || missing+=(iputils-tracepath)
# The fleet tests (issue 24) need a real Docker Swarm, which Podman lacks: Debian's docker.io daemon,
# started by tests/support/swarm.ts with its own roots and socket.
command -v dockerd >/dev/null 2>&1 || missing+=(docker.io)

if [ ${#missing[@]} -gt 0 ]; then
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
fi

# Podman on this kernel: crun fails on hybrid cgroups (runc works), and the default ulimits make
# every container fail with "setrlimit RLIMIT_NOFILE: Operation not permitted".
podman_conf=$'[containers]\ndefault_ulimits = []\n[engine]\nruntime = "runc"\n'
if [ "$(cat /etc/containers/containers.conf 2>/dev/null)" != "$(printf '%s' "$podman_conf")" ]; then
  mkdir -p /etc/containers
  printf '%s' "$podman_conf" >/etc/containers/containers.conf
fi

# The container tests' image: busybox and its applet links, imported as localhost/busybox:test.
if ! podman image exists localhost/busybox:test 2>/dev/null; then
  rootfs=$(mktemp -d)
  mkdir -p "$rootfs/bin" "$rootfs/tmp"
  cp /bin/busybox "$rootfs/bin/busybox"
  for applet in $(/bin/busybox --list); do
    [ "$applet" = busybox ] || ln -s busybox "$rootfs/bin/$applet"
  done
  tar -C "$rootfs" -cf "$rootfs.tar" .
  podman import --quiet "$rootfs.tar" localhost/busybox:test >/dev/null
  rm -rf "$rootfs" "$rootfs.tar"
  echo "Imported localhost/busybox:test."
fi
