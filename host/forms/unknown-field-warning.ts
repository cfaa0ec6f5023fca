/** The fields already warned of, per resource: a slot that writes on every keystroke warns once. */
const warned = new Set<string>();

/**
 * Says, once, that a form slot wrote a value for a field its form does not have (`formContext.setValue('slug', …)` in
 * a resource without `slug`): only the form's own fields are saved, so the value would be dropped without a word, and
 * nothing before the browser can tell (a slot's props name fields as plain strings).
 */
export function warnUnknownField(resource: string, field: string): void {
  const key = `${resource}\u0000${field}`;
  if (warned.has(key)) return;
  warned.add(key);
  console.warn(
    `[slots] A form slot set "${field}" in the ${resource} form, which has no such field: it is not saved. Check the ` +
      "slot's props (the field it writes) against the resource's fields.",
  );
}
