/**
 * The body of `response` as text, or null once it exceeds `maxBytes` (the rest is not read, the body cancelled). For
 * the files read from a team's origin: what that origin answers must not fill the server's memory, whatever its
 * Content-Length says (it may give none, or a false one).
 */
export async function boundedText(response: Response, maxBytes: number): Promise<string | null> {
  if (Number(response.headers.get('content-length') ?? 0) > maxBytes) {
    await response.body?.cancel();
    return null;
  }
  if (response.body === null) return '';
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = response.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel();
      return null;
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}
