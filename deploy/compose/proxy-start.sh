#!/bin/sh
# The proxy's command in deploy/compose.yaml: a self-signed certificate for PROXY_HOSTNAME when /etc/slots-tls holds
# none (kept in the proxy-tls volume, so browsers see the same one after a restart), then nginx in the foreground,
# with a watcher that keeps nginx's upstream to the hosts that are ready (the others that resolve as backups).
# An operator's own certificate: tls.crt (full chain) and tls.key in the folder TLS_DIR names; nothing is made then.
set -eu
dir=/etc/slots-tls
if [ ! -s "$dir/tls.crt" ] || [ ! -s "$dir/tls.key" ]; then
  name="${PROXY_HOSTNAME:-localhost}"
  echo "proxy: no certificate in $dir, making a self-signed one for $name (for trials only)"
  openssl req -x509 -newkey rsa:2048 -nodes -days 365 -subj "/CN=$name" \
    -addext "subjectAltName=DNS:$name,DNS:localhost,IP:127.0.0.1" \
    -keyout "$dir/tls.key" -out "$dir/tls.crt" 2>/dev/null
  chmod 600 "$dir/tls.key"
fi

# The redirect from plain HTTP names the HTTPS port the browser reaches, which is the one compose publishes (8443 by
# default), not the proxy's own 443: `$host` carries no port, so a bare https://$host/ would go where nothing listens.
https_port="${PUBLIC_HTTPS_PORT:-443}"
case "$https_port" in
  '' | *[!0-9]*)
    echo "proxy: PUBLIC_HTTPS_PORT must be a port number, not '$https_port'" >&2
    exit 1
    ;;
esac
if [ "$https_port" = 443 ]; then authority='$host'; else authority="\$host:$https_port"; fi
mkdir -p /run/slots-proxy
echo "return 301 https://$authority\$request_uri;" >/run/slots-proxy/https-redirect.conf

# Why a watcher: open-source nginx resolves the hosts' names once, and only learns a host is down by failing requests
# to it, then leaves it out for fail_timeout. In a rolling restart a host comes back on another address, and the
# second host may be stopped within seconds of the first coming back: nginx must know the first is ready by then.
# So every second this script asks each host's /readyz (as a Kubernetes Service does with its endpoints) and, when the
# set of ready hosts changes, writes their addresses into the upstream (nginx.conf includes the file) and reloads
# nginx, which starts new workers with fresh state; requests in flight finish on the old ones. A draining host
# answers 503 on /readyz for SHUTDOWN_DELAY_MS before it closes its listener, so it leaves the upstream before it
# refuses anything. When no host is ready, every host that resolves stays in, and their own answers (503) go through.
hosts="${PROXY_UPSTREAM_HOSTS:-host-a host-b}"
port="${PROXY_UPSTREAM_PORT:-3000}"
servers=/run/slots-proxy/servers.conf
mkdir -p "$(dirname "$servers")"

# What a host's /readyz says: `ready`; `unready` when it answered otherwise (a draining host's 503) or refused the
# connection (its listener closed: nginx learns that at once); `silent` when nothing answered within the second (the
# process stopped, SIGSTOP or a hung machine, whose kernel still accepts connections, or an address nobody answers).
if command -v curl >/dev/null 2>&1; then
  readiness() {
    if curl -fsS -o /dev/null --max-time 1 "http://$1:$port/readyz" 2>/dev/null; then
      echo ready
    elif [ $? -eq 28 ]; then
      echo silent
    else
      echo unready
    fi
  }
else
  echo "proxy: no curl in this image, every host that resolves stays in the upstream (nginx alone notices failures)"
  readiness() { echo ready; }
fi

# The upstream's server lines, in the order of $hosts: the ready hosts, and each host that resolves but is not ready
# as a `backup` (sent to only when the ready ones failed, or answered 404 for a build file), or every resolved one
# when none is ready. Empty while no host resolves. A silent host is left out while another is ready (a comment line
# names it): as a backup, every build file the ready hosts answered 404 for waited for it, proxy_read_timeout (30 s)
# for a stopped process, whose kernel still completes the connection, or the 2 s connection timeout for an address
# that does not answer; a draining host answers its 503 at once.
# Why the backups: a draining host (SIGTERM, /readyz 503, still listening for SHUTDOWN_DELAY_MS) that is the last of
# its release has just served pages whose scripts only it holds; the pages ask for them right after, when the host has
# left the ready set, and the ready hosts of the other release answer 404. nginx.conf's /assets/ and /remotes/
# locations then ask the backup (an upgrade probe met a new page's four scripts all 404 so). A starting host is one
# too, never asked while a ready host answers.
upstream_servers() {
  resolved="$(for host in $hosts; do
    address="$(getent hosts "$host" | awk '{ print $1; exit }')" || true
    if [ -n "$address" ]; then echo "$host $address"; fi
  done)"
  [ -n "$resolved" ] || return 0
  marked="$(echo "$resolved" | while read -r host address; do
    echo "$(readiness "$address") $host $address"
  done)"
  if echo "$marked" | grep -q '^ready '; then
    echo "$marked" | while read -r state host address; do
      if [ "$state" = ready ]; then
        echo "server $address:$port max_fails=3 fail_timeout=5s; # $host"
      elif [ "$state" = silent ]; then
        echo "# $host (silent: left out)"
      else
        echo "server $address:$port max_fails=3 fail_timeout=5s backup; # $host (not ready: backup)"
      fi
    done
  else
    echo "$resolved" | while read -r host address; do
      echo "server $address:$port max_fails=3 fail_timeout=5s; # $host (not ready)"
    done
  fi
}

# The hosts in the upstream file, for the log: "host-a, host-b", "host-a, host-b (not ready: backup)",
# "host-a, host-b (silent: left out)" or "host-a (not ready), host-b (not ready)".
upstream_names() { sed 's/.*# //' "$servers" | paste -sd, - | sed 's/,/, /g'; }

# nginx refuses to start with an empty upstream: wait (bounded) for a host's container to resolve.
waited=0
current="$(upstream_servers)"
while [ -z "$current" ] && [ "$waited" -lt 120 ]; do
  sleep 1
  waited=$((waited + 1))
  current="$(upstream_servers)"
done
if [ -z "$current" ]; then
  echo "proxy: none of the hosts ($hosts) resolves after 120 s" >&2
  exit 1
fi
echo "$current" >"$servers"
echo "proxy: upstream: $(upstream_names)"

(
  # A turn that fails (a name that stops resolving, nginx not started yet) must not end the watcher.
  set +e
  while sleep 1; do
    next="$(upstream_servers)"
    if [ -n "$next" ] && [ "$next" != "$current" ]; then
      echo "$next" >"$servers"
      # Until the reload succeeds (nginx not started yet, say), the next turn tries again.
      if nginx -s reload 2>/dev/null; then
        current="$next"
        echo "proxy: upstream now: $(upstream_names); nginx reloaded"
      fi
    fi
  done
) &

exec nginx -g 'daemon off;'
