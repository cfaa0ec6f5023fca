import { ExternalStore } from './external-store';

class Counter extends ExternalStore<{ count: number }> {
  constructor() {
    super({ count: 0 });
  }
  add(): void {
    this.publish({ count: this.snapshot().count + 1 });
  }
  same(): void {
    this.publish(this.snapshot());
  }
}

describe('ExternalStore', () => {
  it('gives the same value until it is replaced, and tells listeners of each replacement only', () => {
    const counter = new Counter();
    const { snapshot, subscribe } = counter;
    const listener = jest.fn();
    const stop = subscribe(listener);
    const first = snapshot();
    expect(snapshot()).toBe(first);
    counter.same();
    expect(listener).not.toHaveBeenCalled();
    counter.add();
    expect(snapshot()).toEqual({ count: 1 });
    expect(listener).toHaveBeenCalledTimes(1);
    stop();
    counter.add();
    expect(listener).toHaveBeenCalledTimes(1);
  });

  it('tells every listener even when one unsubscribes while being told', () => {
    const counter = new Counter();
    const calls: string[] = [];
    const stopFirst = counter.subscribe(() => {
      calls.push('first');
      stopFirst();
    });
    counter.subscribe(() => calls.push('second'));
    counter.add();
    counter.add();
    expect(calls).toEqual(['first', 'second', 'second']);
  });
});
