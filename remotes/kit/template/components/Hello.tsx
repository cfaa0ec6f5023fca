export interface HelloProps {
  name: string;
}

/** A slot component: the server places it with `{ "component": "Hello", "props": { "name": "…" } }`. */
export function Hello({ name }: HelloProps) {
  return <p className="hello">Hello, {name}</p>;
}

export default Hello;
