import type { HealthPayload } from '../../../shared';
import { requestJson } from './session-client';

/**
 * Polls `GET /readyz` until it answers `expectedStatus` or `timeoutMs` passes, and returns the last answer: a test
 * asserts on it, so a timeout shows what the instance said instead.
 */
export async function readinessWithin(
  url: string,
  expectedStatus: number,
  timeoutMs: number,
): Promise<{ status: number; body: HealthPayload }> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const answer = await requestJson(url, '/readyz');
    if (answer.status === expectedStatus || Date.now() > deadline) {
      return { status: answer.status, body: answer.body as HealthPayload };
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}
