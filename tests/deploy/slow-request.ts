import net from 'node:net';

export interface SlowRequest {
  /** Resolves once the headers and the first half of the body are sent: the server is working on the request. */
  readonly started: Promise<void>;
  /** Sends the rest of the body. */
  finish(): void;
  /** The answer's status and raw text, once the server closed the connection. */
  readonly answer: Promise<{ status: number; raw: string }>;
}

/**
 * A JSON POST whose body arrives in two parts, on a connection of its own: between them the request is in flight
 * (its headers read, its body awaited), the case a shutdown must let finish. Raw TCP, so the test decides when the
 * second part goes.
 */
export function slowJsonPost(port: number, requestPath: string, body: unknown): SlowRequest {
  const text = JSON.stringify(body);
  const half = Math.floor(text.length / 2);
  const socket = net.connect({ host: '127.0.0.1', port });
  const started = new Promise<void>((resolve, reject) => {
    socket.once('error', reject);
    socket.once('connect', () => {
      socket.write(
        `POST ${requestPath} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Type: application/json\r\n` +
          `Content-Length: ${Buffer.byteLength(text)}\r\nConnection: close\r\n\r\n${text.slice(0, half)}`,
        (error) => (error ? reject(error) : resolve()),
      );
    });
  });
  const answer = new Promise<{ status: number; raw: string }>((resolve, reject) => {
    let raw = '';
    socket.on('data', (chunk: Buffer) => (raw += chunk.toString()));
    socket.once('error', reject);
    socket.once('close', () => {
      const status = /^HTTP\/1\.1 (\d{3})/.exec(raw)?.[1];
      if (status === undefined)
        reject(new Error(`No HTTP answer before the connection closed: ${JSON.stringify(raw)}`));
      else resolve({ status: Number(status), raw });
    });
  });
  // Both are awaited by the test; a rejection before it does is not an unhandled one.
  started.catch(() => undefined);
  answer.catch(() => undefined);
  // write, not end: a half-closed connection is one the server may close before its answer is ready (the sign-in's
  // password check takes a moment); `Connection: close` has the server close it once it answered.
  return { started, finish: () => socket.write(text.slice(half)), answer };
}
