import { getTemplate, type WidgetProps } from '@rjsf/utils';

/** Text a number box can show: what a browser's `<input type="number">` keeps (`3`, `-0.5`, `3.` while typing). */
function readsAsNumber(value: unknown): boolean {
  return typeof value === 'number' || (typeof value === 'string' && value.trim() !== '' && !isNaN(Number(value)));
}

/**
 * The props form's text widget, the one number props are typed in too: the library's own, but a number prop whose
 * value is no number (an import's `"limit": "five"`) is shown as text, as it is. A number box would show it empty, the
 * value kept in the draft, and only the error under it ("must be a whole number") saying something is there. Typing a
 * number mends it: the form reads it as one, and the box is a number box again (the same element, the focus kept).
 */
export function PropsTextWidget(props: WidgetProps) {
  const { options, registry, schema, value } = props;
  const BaseInputTemplate = getTemplate('BaseInputTemplate', registry, options);
  const numeric = schema.type === 'number' || schema.type === 'integer';
  if (!numeric || value === undefined || value === null || value === '' || readsAsNumber(value)) {
    return <BaseInputTemplate {...props} />;
  }
  return <BaseInputTemplate {...props} type="text" value={typeof value === 'string' ? value : JSON.stringify(value)} />;
}
