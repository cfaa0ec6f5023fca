import { DatabaseHealthWatch } from './database-health-watch';
import { NoAnswerError } from './within-deadline';

function watched(check: () => Promise<void>) {
  const told: string[] = [];
  const watch = new DatabaseHealthWatch(
    check,
    {
      unanswered: (error) => told.push(`unanswered: ${(error as Error).message}`),
      answered: () => told.push('answered'),
    },
    60_000,
    50,
  );
  return { watch, told };
}

describe('DatabaseHealthWatch', () => {
  it('tells a probe left unanswered past its deadline (a frozen database), and one answered after it', async () => {
    let thaw: () => void = () => undefined;
    const frozen = new Promise<void>((resolve) => (thaw = resolve));
    let calls = 0;
    const { watch, told } = watched(() => (++calls === 1 ? frozen : Promise.resolve()));
    await watch.probe();
    expect(told).toEqual([`unanswered: ${new NoAnswerError(50).message}`]);
    // The frozen probe still holds its connection: no second one meanwhile.
    await watch.probe();
    expect(calls).toBe(1);
    thaw();
    await frozen;
    await new Promise((resolve) => setImmediate(resolve));
    await watch.probe();
    expect(told).toEqual([`unanswered: ${new NoAnswerError(50).message}`, 'answered']);
  });

  it('counts a failure meaning the database is away, not one of another kind', async () => {
    const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });
    const wrongPassword = Object.assign(new Error('password authentication failed'), { code: '28P01' });
    const failures = [wrongPassword, refused];
    const { watch, told } = watched(() => Promise.reject(failures.shift()));
    await watch.probe();
    await watch.probe();
    expect(told).toEqual(['unanswered: connect ECONNREFUSED 127.0.0.1:5432']);
  });
});
