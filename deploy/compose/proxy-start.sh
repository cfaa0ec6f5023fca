#!/bin/sh
# The proxy's command in deploy/compose.yaml: a self-signed certificate for PROXY_HOSTNAME when /etc/slots-tls holds
# none (kept in the proxy-tls volume, so browsers see the same one after a restart), then nginx in the foreground.
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

# nginx refuses to start on an upstream name that does not resolve: wait (bounded) for both hosts' containers.
hosts="${PROXY_UPSTREAM_HOSTS:-host-a host-b}"
addresses() {
  # One line per host, or nothing unless every host resolves.
  found="$(getent hosts $hosts | awk '{ print $1 }' | sort)" || return 0
  [ "$(printf '%s\n' "$found" | grep -c .)" -eq "$(echo $hosts | wc -w)" ] && printf '%s' "$found"
  return 0
}
waited=0
while [ -z "$(addresses)" ] && [ "$waited" -lt 120 ]; do sleep 1; waited=$((waited + 1)); done

# A host that comes back on another address: reload nginx, which re-resolves the upstream (graceful: requests in
# flight finish on the old workers).
(
  last="$(addresses)"
  while sleep 2; do
    now="$(addresses)"
    if [ -n "$now" ] && [ "$now" != "$last" ]; then
      echo "proxy: the hosts' addresses changed, reloading nginx"
      nginx -s reload && last="$now"
    fi
  done
) &

exec nginx -g 'daemon off;'
