import type http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { MetricsRegistry } from './metrics-registry';
import { createMetricsServer } from './metrics-route';
import type { MetricsSettings } from './metrics-settings';

/** The separate `/metrics` listener of METRICS_PORT, once it listens. */
export interface MetricsListener {
  readonly server: http.Server;
  readonly port: number;
  close(): Promise<void>;
}

/**
 * Listens on METRICS_HOST:METRICS_PORT (127.0.0.1 unless set) for Prometheus, apart from the visitors' port, so a
 * firewall or the bind address keeps it private; METRICS_TOKEN guards it too when set. Rejects when it cannot listen.
 */
export async function listenForMetrics(
  metrics: MetricsRegistry,
  settings: MetricsSettings & { port: number },
): Promise<MetricsListener> {
  const server = createMetricsServer(metrics, settings.token);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(settings.port, settings.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  return {
    server,
    port: (server.address() as AddressInfo).port,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
