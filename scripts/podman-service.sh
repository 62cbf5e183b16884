#!/usr/bin/env bash
# Starts Podman's Docker-compatible API service for the container tests and benchmarks, unless one
# already answers on the socket, and waits until it does. Prints the DOCKER_HOST to use.
# Usage: scripts/podman-service.sh [socket path]   (default /tmp/nexus-podman.sock)
set -euo pipefail

socket=${1:-/tmp/nexus-podman.sock}
# The service is started from / below, so a relative path would point somewhere else there.
case "$socket" in /*) ;; *) socket="$PWD/$socket" ;; esac
log=${socket%.sock}.log

# Node is always here (curl may not be on a clean machine).
ping() {
  node -e '
    const req = require("node:http").get({ socketPath: process.argv[1], path: "/_ping", timeout: 2000 },
      (res) => process.exit(res.statusCode === 200 ? 0 : 1));
    req.on("error", () => process.exit(1));
    req.on("timeout", () => process.exit(1));
  ' "$socket"
}

# The container-update tests run an OCI registry simulator (tests/fixtures/registry-sim.ts) on this one
# loopback port, over plain HTTP. Podman pulls over plain HTTP only from registries marked insecure in
# registries.conf (its compat /images/create has no per-call switch; it reads the file at every pull,
# so a service already running picks this up). Only this test port is marked, nothing else.
registry_conf=/etc/containers/registries.conf.d/nexus-test-registry.conf
registry_entry=$'[[registry]]\nlocation = "127.0.0.1:45123"\ninsecure = true\n'
if [ "$(cat "$registry_conf" 2>/dev/null)" != "$(printf '%s' "$registry_entry")" ] && [ "$(id -u)" -eq 0 ]; then
  mkdir -p "$(dirname "$registry_conf")"
  printf '%s' "$registry_entry" >"$registry_conf"
fi

if ! ping; then
  if ! command -v podman >/dev/null 2>&1; then
    echo "podman is not installed: run scripts/ensure-test-deps.sh first" >&2
    exit 1
  fi
  rm -f "$socket"
  # --time=0: the service never exits for idleness; setsid keeps it alive after this script ends.
  # It starts from /: a service whose working directory is later removed (an old clone, a CI
  # checkout) fails every container start with "write child: broken pipe".
  (cd / && exec setsid podman system service --time=0 "unix://$socket" >"$log" 2>&1 </dev/null) &
  for _ in $(seq 1 150); do
    ping && break
    sleep 0.2
  done
  if ! ping; then
    echo "Podman's API service did not answer on $socket within 30 s; its log:" >&2
    cat "$log" >&2 || true
    exit 1
  fi
fi
echo "unix://$socket"
