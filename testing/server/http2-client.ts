import type { ClientHttp2Session, IncomingHttpHeaders, OutgoingHttpHeaders } from 'node:http2';

/** A whole answer of one HTTP/2 request. */
export interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
}

/** One request on an HTTP/2 connection, its whole answer read. */
export function h2Request(session: ClientHttp2Session, headers: OutgoingHttpHeaders, body?: string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const stream = session.request(headers, { endStream: body === undefined });
    let answerHeaders: IncomingHttpHeaders = {};
    let text = '';
    stream.setEncoding('utf8');
    stream.on('response', (received) => (answerHeaders = received));
    stream.on('data', (chunk: string) => (text += chunk));
    stream.on('end', () => resolve({ status: Number(answerHeaders[':status']), headers: answerHeaders, body: text }));
    stream.on('error', reject);
    if (body !== undefined) stream.end(body);
  });
}
