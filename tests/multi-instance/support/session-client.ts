/**
 * Plain HTTP calls with one session cookie carried by hand, so the same cookie can be replayed against another
 * instance (a browser behind a load balancer without sticky sessions does exactly that).
 */

export interface JsonAnswer {
  status: number;
  headers: Headers;
  body: unknown;
}

/** `name=value` of the session cookie a response set, or null when it set none. */
export function sessionCookieFrom(headers: Headers): string | null {
  const [first] = headers.getSetCookie();
  if (first === undefined) return null;
  return first.split(';', 1)[0] ?? null;
}

export async function requestJson(
  baseUrl: string,
  path: string,
  options: { method?: string; cookie?: string | null; body?: unknown } = {},
): Promise<JsonAnswer> {
  const headers: Record<string, string> = { Accept: 'application/json' };
  if (options.cookie) headers.Cookie = options.cookie;
  if (options.body !== undefined) headers['Content-Type'] = 'application/json';
  const response = await fetch(`${baseUrl}${path}`, {
    method: options.method ?? 'GET',
    headers,
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
    redirect: 'manual',
  });
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: text === '' ? null : JSON.parse(text) };
}

/** Signs in and returns the session cookie; throws with the answer when the sign-in is refused. */
export async function signIn(baseUrl: string, username: string, password: string): Promise<string> {
  const answer = await requestJson(baseUrl, '/login', { method: 'POST', body: { username, password } });
  const cookie = sessionCookieFrom(answer.headers);
  if (answer.status !== 200 || cookie === null) {
    throw new Error(
      `Sign-in on ${baseUrl} answered ${answer.status} ${JSON.stringify(answer.body)} (cookie: ${cookie}).`,
    );
  }
  return cookie;
}
