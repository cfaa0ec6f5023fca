import net from 'node:net';

export interface RawConnection {
  readonly socket: net.Socket;
  /** Everything the server sent so far. */
  received(): string;
  write(text: string): void;
  /** Resolves once the server closed the connection (or it broke), with what it sent. */
  readonly closed: Promise<{ received: string; atMs: number }>;
}

/** A plain TCP connection to an HTTP server, for clients no HTTP library would write (slow, partial, stalled). */
export function openRawConnection(url: string): Promise<RawConnection> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = net.connect({ host: hostname, port: Number(port) });
    let text = '';
    socket.on('data', (chunk: Buffer) => {
      text += chunk.toString('utf8');
    });
    const closed = new Promise<{ received: string; atMs: number }>((resolveClosed) => {
      socket.on('close', () => resolveClosed({ received: text, atMs: Date.now() }));
    });
    socket.once('error', reject);
    socket.once('connect', () => {
      socket.off('error', reject);
      socket.on('error', () => undefined);
      resolve({
        socket,
        received: () => text,
        write: (chunk) => {
          if (!socket.destroyed) socket.write(chunk);
        },
        closed,
      });
    });
  });
}

/** Status code and parsed JSON body of the first HTTP/1.1 response in `raw`. */
export function parseRawResponse(raw: string): { status: number; headers: Record<string, string>; body: unknown } {
  const end = raw.indexOf('\r\n\r\n');
  if (end === -1) throw new Error(`No complete HTTP response in: ${JSON.stringify(raw.slice(0, 200))}`);
  const [statusLine = '', ...headerLines] = raw.slice(0, end).split('\r\n');
  const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(statusLine)?.[1]);
  const headers: Record<string, string> = {};
  for (const line of headerLines) {
    const colon = line.indexOf(':');
    if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  const length = Number(headers['content-length'] ?? NaN);
  const bodyText = Number.isFinite(length) ? raw.slice(end + 4, end + 4 + length) : raw.slice(end + 4);
  return { status, headers, body: bodyText === '' ? null : (JSON.parse(bodyText) as unknown) };
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
