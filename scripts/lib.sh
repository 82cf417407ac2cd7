# Shared steps of scripts/run.sh and scripts/test.sh: install what is missing, make PostgreSQL
# and Redis reachable, install dependencies, generate the Prisma client and migrate.
# Sourced, not run. Every step is idempotent and quick when there is nothing to do.

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
PNPM_VERSION=10.34.9
export DATABASE_URL=${DATABASE_URL:-postgresql://postgres@127.0.0.1:5432/catalog}
export REDIS_URL=${REDIS_URL:-redis://127.0.0.1:6379}

say() { printf '\033[1m==> %s\033[0m\n' "$*" >&2; }
die() { printf 'error: %s\n' "$*" >&2; exit 1; }

as_root() { if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi; }

apt_install() {
  say "Installing $* from Debian's packages"
  if [ -z "${APT_UPDATED:-}" ]; then as_root apt-get update -qq >/dev/null; APT_UPDATED=1; fi
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$@" >/dev/null
}

# Node.js: the version in .node-version (the image's, see the Dockerfile) is the one runtime. A
# machine's own Node of that major version is used as it is; otherwise (Debian ships 18, older
# machines 20) that exact version is installed once from the npm registry's `node` package into
# .tools/ (ignored by git) and put first on PATH, so pnpm, jest, tsx, Playwright's web servers and
# everything else these scripts start run under it.
NODE_VERSION=$(tr -d '[:space:]' < "$ROOT/.node-version")
NODE_MAJOR=${NODE_VERSION%%.*}

node_major() { "${1:-node}" -p 'process.versions.node.split(".")[0]' 2>/dev/null; }

ensure_node() {
  [ "$(node_major)" = "$NODE_MAJOR" ] && return 0
  local dir="$ROOT/.tools/node-$NODE_VERSION"
  local bin="$dir/node_modules/node/bin"
  if [ "$(node_major "$bin/node")" != "$NODE_MAJOR" ]; then
    command -v npm >/dev/null || die "Node.js $NODE_MAJOR is needed, and npm to install it (this is $(node -v 2>/dev/null || echo 'no Node'))"
    say "Installing Node.js $NODE_VERSION from the npm registry (this machine has $(node -v 2>/dev/null || echo 'no Node'))"
    # Into a folder of its own first, then renamed: a run stopped half-way or a second run at the
    # same time never leaves a half-installed Node behind.
    mkdir -p "$ROOT/.tools"
    local tmp
    tmp=$(mktemp -d "$ROOT/.tools/node-install.XXXXXX")
    # --prefix: npm would otherwise install into the nearest folder with a package.json, the repository.
    if ! npm install --prefix "$tmp" --no-save --no-package-lock --no-audit --no-fund --loglevel=error "node@$NODE_VERSION" >/dev/null 2>&1 \
      || [ "$(node_major "$tmp/node_modules/node/bin/node")" != "$NODE_MAJOR" ]; then
      rm -rf "$tmp"
      die "could not install Node.js $NODE_VERSION with npm"
    fi
    if [ "$(node_major "$bin/node")" = "$NODE_MAJOR" ]; then
      rm -rf "$tmp" # another run installed it meanwhile
    else
      rm -rf "$dir"
      chmod 755 "$tmp" # mktemp made it private
      mv -T "$tmp" "$dir"
    fi
  fi
  export PATH="$bin:$PATH"
  hash -r
  [ "$(node_major)" = "$NODE_MAJOR" ] || die "Node.js $NODE_MAJOR is not first on PATH after installing it ($(command -v node))"
}

ensure_pnpm() {
  if ! command -v pnpm >/dev/null || ! pnpm --version 2>/dev/null | grep -q '^10\.'; then
    say "Installing pnpm $PNPM_VERSION"
    npm install -g "pnpm@$PNPM_VERSION" >/dev/null 2>&1 || die "could not install pnpm with npm"
  fi
}

# host and port of a URL such as postgresql://user@host:5432/db
url_host() { node -e 'const u=new URL(process.argv[1]); console.log(u.hostname.replace(/^\[|\]$/g,""))' "$1"; }
url_port() { node -e 'const u=new URL(process.argv[1]); console.log(u.port||process.argv[2])' "$1" "$2"; }
is_local() { case "$1" in 127.0.0.1|localhost|::1) return 0;; *) return 1;; esac; }
port_open() { node -e 'const s=require("net").connect(+process.argv[2],process.argv[1]);s.on("connect",()=>process.exit(0));s.on("error",()=>process.exit(1));setTimeout(()=>process.exit(1),1500)' "$1" "$2"; }

wait_port() {
  for _ in $(seq 1 60); do port_open "$1" "$2" && return 0; sleep 0.5; done
  return 1
}

ensure_postgres() {
  local host port
  host=$(url_host "$DATABASE_URL"); port=$(url_port "$DATABASE_URL" 5432)
  port_open "$host" "$port" && return 0
  is_local "$host" || die "PostgreSQL at $host:$port is not reachable (DATABASE_URL)"
  if ! ls /etc/postgresql/*/main >/dev/null 2>&1; then
    apt_install postgresql
    # A fresh local cluster for development: let the local postgres user in over TCP without a password.
    for hba in /etc/postgresql/*/main/pg_hba.conf; do
      as_root sed -i -E 's/^(host\s+all\s+all\s+(127\.0\.0\.1\/32|::1\/128)\s+)\S+/\1trust/' "$hba"
    done
  fi
  say "Starting PostgreSQL"
  as_root pg_ctlcluster --skip-systemctl-redirect "$(ls /etc/postgresql | sort -V | tail -n 1)" main start || true
  wait_port "$host" "$port" || die "PostgreSQL did not start on $host:$port"
}

ensure_redis() {
  local host port
  host=$(url_host "$REDIS_URL"); port=$(url_port "$REDIS_URL" 6379)
  port_open "$host" "$port" && return 0
  is_local "$host" || die "Redis at $host:$port is not reachable (REDIS_URL)"
  command -v redis-server >/dev/null || apt_install redis-server
  say "Starting Redis"
  as_root mkdir -p /var/lib/redis /var/log/redis
  as_root redis-server --daemonize yes --bind 127.0.0.1 -::1 --port "$port" --save "" --appendonly no \
    --dir /var/lib/redis --logfile /var/log/redis/catalog.log
  wait_port "$host" "$port" || die "Redis did not start on $host:$port"
}

# Debian's Chromium, for the import worker's browser fallback (Playwright cannot download its own here).
ensure_chromium() {
  local path=${CHROMIUM_PATH:-/usr/bin/chromium}
  [ -x "$path" ] && return 0
  command -v apt-get >/dev/null || die "Chromium is needed at $path (set CHROMIUM_PATH)"
  apt_install chromium
  [ -x "$path" ] || die "Chromium did not install at $path"
}

install_dependencies() {
  cd "$ROOT"
  say "Installing dependencies"
  pnpm install --frozen-lockfile --reporter=silent || die "pnpm install failed"
  pnpm --silent db:generate >/dev/null || die "generating the Prisma client failed"
}

# Destination credentials are sealed with a key from CREDENTIALS_KEYS. For a local run without
# one, a key is made once and kept in .local/ (ignored by git), so sealed tokens stay readable
# across restarts. Deployments set CREDENTIALS_KEYS themselves.
ensure_credentials_key() {
  [ -n "${CREDENTIALS_KEYS:-}" ] && return 0
  local file="$ROOT/.local/credentials.keys"
  if [ ! -s "$file" ]; then
    mkdir -p "$ROOT/.local"
    (umask 077; node -e 'console.log("local1:" + require("crypto").randomBytes(32).toString("base64"))' > "$file")
  fi
  CREDENTIALS_KEYS=$(cat "$file")
  export CREDENTIALS_KEYS
}

prepare() {
  ensure_node
  say "Node.js $(node -v) ($(command -v node))"
  ensure_pnpm
  ensure_postgres
  ensure_redis
  ensure_chromium
  install_dependencies
}

# A Redis Cluster of three masters on loopback ports, for the tests that run on one (test.sh).
# Sets REDIS_CLUSTER_URL (one node: the others are found from it); stop_redis_cluster ends it.
start_redis_cluster() {
  command -v redis-server >/dev/null && command -v redis-cli >/dev/null || apt_install redis-server
  REDIS_CLUSTER_DIR=$(mktemp -d)
  # Three free ports in a row from 7101, each with its cluster bus port (+10000) free too.
  local base port ports nodes=()
  base=$(node -e '
    const net = require("net");
    const free = (port) => new Promise((ok) => { const s = net.createServer().once("error", () => ok(false)).listen(port, "127.0.0.1", () => s.close(() => ok(true))); });
    (async () => {
      for (let p = 7101; p < 7900; p += 3) {
        const ports = [p, p + 1, p + 2].flatMap((q) => [q, q + 10000]);
        if ((await Promise.all(ports.map(free))).every(Boolean)) return console.log(p);
      }
      process.exit(1);
    })();') || die "no three free ports for a Redis Cluster between 7101 and 7900"
  ports=("$base" $((base + 1)) $((base + 2)))
  for port in "${ports[@]}"; do
    redis-server --port "$port" --bind 127.0.0.1 --cluster-enabled yes --cluster-config-file "$REDIS_CLUSTER_DIR/nodes-$port.conf" \
      --dir "$REDIS_CLUSTER_DIR" --save "" --appendonly no --daemonize yes \
      --pidfile "$REDIS_CLUSTER_DIR/$port.pid" --logfile "$REDIS_CLUSTER_DIR/$port.log" >/dev/null
    wait_port 127.0.0.1 "$port" || die "Redis Cluster node $port did not start (see $REDIS_CLUSTER_DIR/$port.log)"
    nodes+=("127.0.0.1:$port")
  done
  redis-cli --cluster create "${nodes[@]}" --cluster-replicas 0 --cluster-yes >"$REDIS_CLUSTER_DIR/create.log" 2>&1 \
    || die "could not create the Redis Cluster: $(tail -n 3 "$REDIS_CLUSTER_DIR/create.log")"
  for _ in $(seq 1 60); do
    local ok=0
    for port in "${ports[@]}"; do
      redis-cli -p "$port" cluster info 2>/dev/null | grep -q '^cluster_state:ok' && ok=$((ok + 1))
    done
    if [ "$ok" = 3 ]; then REDIS_CLUSTER_URL="redis://127.0.0.1:$base"; return 0; fi
    sleep 0.2
  done
  die "the Redis Cluster on ports $base-$((base + 2)) did not reach cluster_state:ok"
}

stop_redis_cluster() {
  [ -n "${REDIS_CLUSTER_DIR:-}" ] || return 0
  local pidfile pid pids=()
  for pidfile in "$REDIS_CLUSTER_DIR"/*.pid; do
    [ -f "$pidfile" ] && pids+=("$(cat "$pidfile")")
  done
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
  # A node writes its files (nodes-*.conf, its log) while it shuts down: removing the folder before
  # it has exited can fail with "Directory not empty". The nodes are daemons, not our children, so
  # their exit is watched with kill -0 (at most 10 s, then SIGKILL).
  for pid in "${pids[@]}"; do
    for _ in $(seq 1 100); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    if kill -0 "$pid" 2>/dev/null; then kill -KILL "$pid" 2>/dev/null || true; fi
  done
  rm -rf "$REDIS_CLUSTER_DIR"
  REDIS_CLUSTER_DIR=
}
