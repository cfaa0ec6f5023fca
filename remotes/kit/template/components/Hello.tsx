import type { PropsOf } from '@slots-platform/remote-kit';
import type remote from '../remote';

/** `{ name: string }`, inferred from the schema declared in remote.ts. */
export type HelloProps = PropsOf<typeof remote, 'Hello'>;

/** A slot component: the server places it with `{ "component": "Hello", "props": { "name": "…" } }`. */
export function Hello({ name }: HelloProps) {
  return <p className="hello">Hello, {name}</p>;
}

export default Hello;
