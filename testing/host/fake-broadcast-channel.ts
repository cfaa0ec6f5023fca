/**
 * BroadcastChannel for jsdom, which has none: every channel of a name made here hears the messages the others of
 * that name post (not its own), a task later, as the tabs of one origin do in a browser. `install` puts it on the
 * window and gives back what takes it off, closing what is still open.
 */
export class FakeBroadcastChannel {
  private static readonly open = new Set<FakeBroadcastChannel>();
  onmessage: ((event: MessageEvent) => void) | null = null;

  constructor(readonly name: string) {
    FakeBroadcastChannel.open.add(this);
  }

  postMessage(data: unknown): void {
    for (const other of FakeBroadcastChannel.open) {
      if (other === this || other.name !== this.name) continue;
      setTimeout(() => other.onmessage?.(new MessageEvent('message', { data })), 0);
    }
  }

  close(): void {
    FakeBroadcastChannel.open.delete(this);
  }

  static install(target: Window = window): () => void {
    Object.defineProperty(target, 'BroadcastChannel', { configurable: true, value: FakeBroadcastChannel });
    return () => {
      Reflect.deleteProperty(target, 'BroadcastChannel');
      FakeBroadcastChannel.open.clear();
    };
  }
}

/** A tab's window as far as a session store follows it (`listen`): its own events, and a FakeBroadcastChannel. */
export function fakeTabWindow(): Window {
  const target = new EventTarget() as unknown as Window;
  FakeBroadcastChannel.install(target);
  return target;
}
