import type request from 'supertest';

/** Headers every answer has its own of (when it was sent, its id, its body's tag). */
const PER_ANSWER = ['date', 'x-request-id', 'etag'];

/**
 * What two answers must share to be told apart by nobody: status, body byte for byte and every header but those each
 * answer has its own of (a refusal that must read as another, e.g. a disabled account's wrong password).
 */
export function comparableAnswer(response: request.Response) {
  return {
    status: response.status,
    text: response.text,
    headers: Object.fromEntries(Object.entries(response.headers).filter(([name]) => !PER_ANSWER.includes(name))),
  };
}
