#!/usr/bin/env bash
# Installs the Nexus agent as a systemd service on a fresh JetPack (Ubuntu) or Debian machine:
# Node.js 20, the build in /opt/nexus, the "nexus" user, the data directory /var/lib/nexus, the
# configuration /etc/nexus/nexus.env and the unit nexus-agent.service. Idempotent: run it again to
# update; your configuration and data are kept.
#
#   sudo ./scripts/install.sh                 install or update, then start
#   sudo ./scripts/install.sh --uninstall     remove the service and the build (data and config stay)
#   sudo ./scripts/install.sh --uninstall --purge   …and delete the data, the config and the user
#
# Run it from a checkout of the repository.
set -euo pipefail

readonly NODE_MAJOR=20
readonly NODE_MIN_VERSION=20.19.0
readonly SERVICE=nexus-agent
readonly SERVICE_USER=nexus
readonly PREFIX=/opt/nexus
readonly DATA_DIR=/var/lib/nexus
readonly CONFIG_DIR=/etc/nexus
readonly ENV_FILE=${CONFIG_DIR}/nexus.env
readonly UNIT_FILE=/etc/systemd/system/${SERVICE}.service
readonly HEALTH_TIMEOUT_S=60

SOURCE_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
readonly SOURCE_DIR

action=install
purge=false
start=true
dry_run=false
port=8080

usage() {
  cat <<EOF
Usage: sudo $0 [options]

Installs (or updates) the Nexus agent as the systemd service ${SERVICE}.

Options:
  --port N       the console's port when the configuration is first written (default 8080)
  --no-start     install and enable, but do not start the service now
  --dry-run      print what would be done, change nothing
  --uninstall    stop and remove the service and ${PREFIX}; keep ${DATA_DIR} and ${CONFIG_DIR}
  --purge        with --uninstall: also delete ${DATA_DIR}, ${CONFIG_DIR} and the ${SERVICE_USER} user
  -h, --help     this help
EOF
}

say() { printf '\033[1m==>\033[0m %s\n' "$*"; }
warn() { printf '\033[33mwarning:\033[0m %s\n' "$*" >&2; }
die() {
  printf '\033[31merror:\033[0m %s\n' "$*" >&2
  exit 1
}

# Every change goes through run, so --dry-run can show the plan without doing it.
run() {
  if [ "$dry_run" = true ]; then
    printf '+ %s\n' "$*"
  else
    "$@"
  fi
}

on_error() {
  local status=$? line=$1
  printf '\033[31merror:\033[0m the installer stopped at line %s (exit %s): %s\n' "$line" "$status" "$BASH_COMMAND" >&2
  printf 'Nothing after that step was done; fix the cause and run the installer again.\n' >&2
}
trap 'on_error $LINENO' ERR

parse_args() {
  while [ $# -gt 0 ]; do
    case "$1" in
      --port)
        [ $# -ge 2 ] || { usage >&2; exit 2; }
        port=$2
        shift 2
        ;;
      --no-start) start=false; shift ;;
      --dry-run) dry_run=true; shift ;;
      --uninstall) action=uninstall; shift ;;
      --purge) purge=true; shift ;;
      -h | --help) usage; exit 0 ;;
      *)
        printf 'error: unknown option %s\n\n' "$1" >&2
        usage >&2
        exit 2
        ;;
    esac
  done
  if ! [[ $port =~ ^[0-9]+$ ]] || [ "$port" -lt 1 ] || [ "$port" -gt 65535 ]; then
    printf 'error: --port needs a number from 1 to 65535, not %s\n' "$port" >&2
    exit 2
  fi
  if [ "$purge" = true ] && [ "$action" != uninstall ]; then
    printf 'error: --purge only goes with --uninstall\n' >&2
    exit 2
  fi
}

check_system() {
  if [ "$(id -u)" -ne 0 ] && [ "$dry_run" = false ]; then
    die "run the installer as root: sudo $0 $*"
  fi
  command -v systemctl >/dev/null 2>&1 || die "systemd is needed (systemctl not found); on other systems use compose.yaml"
  [ -r /etc/os-release ] || die "/etc/os-release is missing: cannot tell which system this is"
  # shellcheck disable=SC1091 # the running system's file, not part of this repository
  . /etc/os-release
  case " ${ID:-} ${ID_LIKE:-} " in
    *" debian "* | *" ubuntu "*) ;;
    *) die "this installer supports JetPack (Ubuntu) and Debian; found ${PRETTY_NAME:-an unknown system}. Use compose.yaml instead." ;;
  esac
  case "$(uname -m)" in
    aarch64) ;;
    x86_64) warn "this is not a Jetson (x86_64): the console works, local models run without the Jetson GPU" ;;
    *) die "unsupported processor $(uname -m): Nexus runs on aarch64 (Jetson) and x86_64" ;;
  esac
  [ -f /etc/nv_tegra_release ] || warn "/etc/nv_tegra_release not found: this does not look like a JetPack system"
  if [ "$action" = install ]; then
    if [ ! -f "$SOURCE_DIR/package.json" ] || [ ! -d "$SOURCE_DIR/agent" ] || [ ! -d "$SOURCE_DIR/web" ]; then
      die "run the installer from a checkout of the Nexus repository ($SOURCE_DIR has no package.json, agent/ and web/)"
    fi
  fi
}

# "20.19.2" >= "20.19.0"?
version_at_least() {
  [ "$(printf '%s\n%s\n' "$2" "$1" | sort -V | head -n1)" = "$2" ]
}

ensure_node() {
  local current=''
  if command -v node >/dev/null 2>&1; then
    current=$(node --version | sed 's/^v//')
  fi
  if [ -n "$current" ] && version_at_least "$current" "$NODE_MIN_VERSION"; then
    say "Node.js $current is installed"
    return
  fi
  say "Installing Node.js ${NODE_MAJOR} from NodeSource (found: ${current:-none})"
  export DEBIAN_FRONTEND=noninteractive
  run apt-get update -qq
  run apt-get install -y -qq --no-install-recommends ca-certificates curl gnupg
  run install -d -m 0755 /etc/apt/keyrings
  if [ "$dry_run" = true ]; then
    printf '+ curl -fsSL https://deb.nodesource.com/gpgkey/nodesource-repo.gpg.key | gpg --dearmor -o /etc/apt/keyrings/nodesource.gpg\n'
  else
    curl -fsSL https://deb.nodesource.com/gpgkey/nodesource-repo.gpg.key |
      gpg --dearmor --yes -o /etc/apt/keyrings/nodesource.gpg ||
      die "could not fetch NodeSource's signing key: is the hub online?"
  fi
  local repo="deb [signed-by=/etc/apt/keyrings/nodesource.gpg] https://deb.nodesource.com/node_${NODE_MAJOR}.x nodistro main"
  if [ "$dry_run" = true ]; then
    printf '+ echo %q > /etc/apt/sources.list.d/nodesource.list\n' "$repo"
  else
    printf '%s\n' "$repo" >/etc/apt/sources.list.d/nodesource.list
  fi
  run apt-get update -qq
  # The native modules (better-sqlite3, argon2) fall back to compiling when no prebuilt binary fits.
  run apt-get install -y -qq --no-install-recommends nodejs build-essential python3
  if [ "$dry_run" = false ]; then
    current=$(node --version | sed 's/^v//')
    version_at_least "$current" "$NODE_MIN_VERSION" || die "Node.js $current was installed, but $NODE_MIN_VERSION or newer is needed"
  fi
}

ensure_user() {
  if id "$SERVICE_USER" >/dev/null 2>&1; then
    say "User $SERVICE_USER exists"
  else
    say "Creating the system user $SERVICE_USER"
    run useradd --system --user-group --home-dir "$DATA_DIR" --no-create-home --shell /usr/sbin/nologin "$SERVICE_USER"
  fi
  if getent group docker >/dev/null 2>&1; then
    # Container management through /var/run/docker.sock.
    run usermod -aG docker "$SERVICE_USER"
  else
    warn "no docker group: container management stays off until Docker is installed and $SERVICE_USER joins that group"
  fi
}

build_app() {
  say "Building the console in $PREFIX"
  run install -d -m 0755 "$PREFIX"
  # A clean copy of the sources: nothing left over from an older version, no local builds or data.
  run find "$PREFIX" -mindepth 1 -maxdepth 1 -exec rm -rf {} +
  run tar -C "$SOURCE_DIR" --exclude=./node_modules --exclude='./*/node_modules' --exclude='./*/dist' \
    --exclude=./data --exclude=./.git --exclude=./test-results --exclude=./playwright-report -cf "$PREFIX/.src.tar" .
  run tar -C "$PREFIX" -xf "$PREFIX/.src.tar"
  run rm -f "$PREFIX/.src.tar"
  if [ "$dry_run" = true ]; then
    printf '+ (cd %s && npm ci && npm run build && npm prune --omit=dev)\n' "$PREFIX"
  else
    (cd "$PREFIX" && npm ci --no-audit --no-fund && npm run build && npm prune --omit=dev --no-audit --no-fund) ||
      die "the build failed; its output is above"
  fi
  run chown -R root:root "$PREFIX"
}

ensure_dirs_and_config() {
  say "Data directory $DATA_DIR"
  run install -d -m 0700 -o "$SERVICE_USER" -g "$SERVICE_USER" "$DATA_DIR"
  run install -d -m 0750 -o root -g "$SERVICE_USER" "$CONFIG_DIR"
  if [ -f "$ENV_FILE" ]; then
    say "Keeping the configuration in $ENV_FILE"
    return
  fi
  say "Writing $ENV_FILE"
  local config
  config=$(
    cat <<EOF
# The Nexus agent's environment (docs/configuration.md). Restart after a change:
#   sudo systemctl restart ${SERVICE}
PORT=${port}
HOST=0.0.0.0
OLLAMA_URL=http://127.0.0.1:11434
# DOCKER_HOST=unix:///var/run/docker.sock
# HA_URL=http://127.0.0.1:8123
# HA_TOKEN=
# NEXUS_TRUST_PROXY=false
LOG_LEVEL=info
EOF
  )
  if [ "$dry_run" = true ]; then
    printf '+ write %s (mode 0640, root:%s)\n' "$ENV_FILE" "$SERVICE_USER"
  else
    printf '%s\n' "$config" >"$ENV_FILE"
    chown "root:$SERVICE_USER" "$ENV_FILE"
    chmod 0640 "$ENV_FILE"
  fi
}

install_unit() {
  say "Installing $UNIT_FILE"
  # The unit runs /usr/bin/node (NodeSource's place); a Node.js found elsewhere is used instead.
  local node_bin
  node_bin=$(command -v node || echo /usr/bin/node)
  if [ "$dry_run" = true ]; then
    printf '+ install %s as %s (node: %s)\n' "$SOURCE_DIR/systemd/${SERVICE}.service" "$UNIT_FILE" "$node_bin"
  else
    sed "s#^ExecStart=/usr/bin/node #ExecStart=${node_bin} #" "$SOURCE_DIR/systemd/${SERVICE}.service" >"$UNIT_FILE"
    chmod 0644 "$UNIT_FILE"
  fi
  run systemctl daemon-reload
  run systemctl enable "$SERVICE" --quiet
  if [ "$start" = false ]; then
    say "Installed; start it with: sudo systemctl start $SERVICE"
    return
  fi
  run systemctl restart "$SERVICE"
  [ "$dry_run" = true ] && return
  local configured_port
  configured_port=$(sed -n 's/^PORT=\([0-9]\{1,5\}\)$/\1/p' "$ENV_FILE" | tail -n1)
  configured_port=${configured_port:-8080}
  say "Waiting for the console on port $configured_port"
  local waited=0
  until curl -fsS "http://127.0.0.1:${configured_port}/api/health" >/dev/null 2>&1; do
    if [ "$waited" -ge "$HEALTH_TIMEOUT_S" ]; then
      systemctl --no-pager --lines=20 status "$SERVICE" >&2 || true
      die "the service did not answer within ${HEALTH_TIMEOUT_S} s; see: journalctl -u $SERVICE"
    fi
    sleep 1
    waited=$((waited + 1))
  done
  local address
  address=$(hostname -I 2>/dev/null | awk '{print $1}')
  say "Nexus is running. Open http://${address:-<this hub>}:${configured_port}/ to set it up."
}

uninstall() {
  say "Removing the $SERVICE service"
  if systemctl list-unit-files "${SERVICE}.service" >/dev/null 2>&1; then
    run systemctl disable --now "$SERVICE" --quiet || true
  fi
  run rm -f "$UNIT_FILE"
  run systemctl daemon-reload
  run rm -rf "$PREFIX"
  if [ "$purge" = true ]; then
    say "Deleting $DATA_DIR, $CONFIG_DIR and the $SERVICE_USER user"
    run rm -rf "$DATA_DIR" "$CONFIG_DIR"
    if id "$SERVICE_USER" >/dev/null 2>&1; then
      run userdel "$SERVICE_USER"
    fi
  else
    say "Kept $DATA_DIR (accounts, settings, secret.key) and $CONFIG_DIR; --uninstall --purge deletes them"
  fi
}

main() {
  parse_args "$@"
  check_system "$@"
  [ "$dry_run" = true ] && say "Dry run: nothing is changed"
  if [ "$action" = uninstall ]; then
    uninstall
    return
  fi
  ensure_node
  ensure_user
  build_app
  ensure_dirs_and_config
  install_unit
}

main "$@"
