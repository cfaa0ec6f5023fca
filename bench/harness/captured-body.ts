import { writeFile } from 'node:fs/promises';

/** An answer of the real server, kept so a baseline can send the very same bytes and content headers. */
export interface CapturedBody {
  bytes: Buffer;
  /** File holding `bytes`, handed to a baseline process as BODY_FILE. */
  file: string;
  contentType: string;
  etag: string | null;
  cacheControl: string | null;
}

export async function captureBody(url: string, headers: Record<string, string>, file: string): Promise<CapturedBody> {
  const response = await fetch(url, { headers });
  const bytes = Buffer.from(await response.arrayBuffer());
  if (response.status !== 200) {
    throw new Error(`GET ${url} answered ${response.status}, expected 200: ${bytes.toString('utf8').slice(0, 300)}`);
  }
  await writeFile(file, bytes);
  return {
    bytes,
    file,
    contentType: response.headers.get('content-type') ?? 'application/octet-stream',
    etag: response.headers.get('etag'),
    cacheControl: response.headers.get('cache-control'),
  };
}
