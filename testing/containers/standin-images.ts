import type { BaseImageOptions } from './node-base-image';
import { ensurePackageImage, type PackageImageSpec } from './package-image';

/**
 * Stand-ins for the public images a deployment pulls (`postgres:15`, `redis:7`, `nginx`), built from Debian's
 * packages on the stand-in base because no image registry is reachable here. Each keeps what a compose file or a
 * manifest relies on in the public image: PostgreSQL's POSTGRES_USER / POSTGRES_PASSWORD / POSTGRES_DB, its data in
 * /var/lib/postgresql/data and connections from other containers; Redis answering other containers without a
 * password (the public image turns protected mode off); nginx reading /etc/nginx/conf.d/*.conf, logging to the
 * container's output, in the foreground.
 */
export type StandinService = 'postgres' | 'redis' | 'nginx';

/** Initialises the cluster on first start from the public image's variables, then runs the command (`postgres`). */
const POSTGRES_ENTRYPOINT = `#!/bin/sh
set -eu
: "\${PGDATA:=/var/lib/postgresql/data}"
user="\${POSTGRES_USER:-postgres}"
db="\${POSTGRES_DB:-$user}"
auth="\${POSTGRES_HOST_AUTH_METHOD:-scram-sha-256}"
if [ ! -s "$PGDATA/PG_VERSION" ]; then
  if [ -z "\${POSTGRES_PASSWORD:-}" ] && [ "$auth" != trust ]; then
    echo "postgres stand-in: POSTGRES_PASSWORD is not set (as the public image, it refuses to start)" >&2
    exit 1
  fi
  pwfile="$(mktemp)"
  printf '%s\\n' "\${POSTGRES_PASSWORD:-}" > "$pwfile"
  initdb -D "$PGDATA" --username="$user" --pwfile="$pwfile" --auth-local=trust --auth-host="$auth" >/dev/null
  rm -f "$pwfile"
  # Other containers of the network connect over TCP: every address, with the password.
  echo "host all all all $auth" >> "$PGDATA/pg_hba.conf"
  echo "listen_addresses = '*'" >> "$PGDATA/postgresql.conf"
  if [ "$db" != postgres ]; then
    echo "CREATE DATABASE \\"$db\\" OWNER \\"$user\\";" | postgres --single -D "$PGDATA" postgres >/dev/null
  fi
fi
exec "$@"
`;

/** As the public image's entry point: options alone mean redis-server's; protected mode off, as there. */
const REDIS_ENTRYPOINT = `#!/bin/sh
set -eu
if [ "$#" -eq 0 ] || [ "\${1#-}" != "$1" ]; then set -- redis-server "$@"; fi
if [ "$1" = redis-server ]; then set -- "$@" --protected-mode no; fi
exec "$@"
`;

export const STANDIN_SPECS: Readonly<Record<StandinService, PackageImageSpec>> = {
  postgres: {
    name: 'localhost/slots-standin/postgres:15',
    // As the public image: no cluster made by the package, one made at first start in PGDATA instead.
    beforeInstall: [
      'RUN mkdir -p /etc/postgresql-common && echo "create_main_cluster = false" > /etc/postgresql-common/createcluster.conf',
    ],
    packages: ['postgresql-15'],
    files: { '/usr/local/bin/postgres-standin-entrypoint': POSTGRES_ENTRYPOINT },
    lines: [
      'RUN mkdir -p /var/lib/postgresql/data /run/postgresql \\',
      '  && chown -R postgres:postgres /var/lib/postgresql /run/postgresql && chmod 700 /var/lib/postgresql/data',
      'ENV PATH=/usr/lib/postgresql/15/bin:$PATH PGDATA=/var/lib/postgresql/data',
      'USER postgres',
      'VOLUME /var/lib/postgresql/data',
      'EXPOSE 5432',
      // PostgreSQL's fast shutdown, as the public image stops it.
      'STOPSIGNAL SIGINT',
      'ENTRYPOINT ["/usr/local/bin/postgres-standin-entrypoint"]',
      'CMD ["postgres"]',
    ],
  },
  redis: {
    name: 'localhost/slots-standin/redis:7',
    packages: ['redis-server'],
    files: { '/usr/local/bin/redis-standin-entrypoint': REDIS_ENTRYPOINT },
    lines: [
      'RUN mkdir -p /data && chown redis:redis /data',
      'WORKDIR /data',
      'USER redis',
      'VOLUME /data',
      'EXPOSE 6379',
      'ENTRYPOINT ["/usr/local/bin/redis-standin-entrypoint"]',
      'CMD ["redis-server"]',
    ],
  },
  nginx: {
    name: 'localhost/slots-standin/nginx:stable',
    packages: ['nginx-light'],
    lines: [
      // Only what a deployment mounts into conf.d/ is served; logs go to the container's output.
      'RUN rm -f /etc/nginx/sites-enabled/default \\',
      '  && ln -sf /dev/stdout /var/log/nginx/access.log && ln -sf /dev/stderr /var/log/nginx/error.log',
      'EXPOSE 80 443',
      // nginx's graceful stop (requests in flight finish), as the public image stops it.
      'STOPSIGNAL SIGQUIT',
      'CMD ["nginx", "-g", "daemon off;"]',
    ],
  },
};

/** Builds (or reuses) the stand-in of `service`; resolves to the image name to run. */
export function ensureStandinImage(service: StandinService, options: BaseImageOptions = {}): Promise<string> {
  return ensurePackageImage(STANDIN_SPECS[service], options);
}
