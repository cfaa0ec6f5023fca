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
exec nginx -g 'daemon off;'
