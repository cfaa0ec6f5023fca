export interface AuditNoteProps {
  text: string;
}

/** A note under a record form about how changes are recorded. */
export function AuditNote({ text }: AuditNoteProps) {
  if (typeof text !== 'string' || text === '') return null;
  return (
    <p className="audit-note">
      <span className="audit-note__label">Audit</span>
      {text}
    </p>
  );
}
