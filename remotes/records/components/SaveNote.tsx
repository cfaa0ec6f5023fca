export interface SaveNoteProps {
  text: string;
}

/** A note under a record form about what saving does. */
export function SaveNote({ text }: SaveNoteProps) {
  if (typeof text !== 'string' || text === '') return null;
  return <p className="hint">{text}</p>;
}
