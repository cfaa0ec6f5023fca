// The widget alone, as the form is imported (placement-props-form.tsx): not the package's index.
import SelectWidget from '@rjsf/core/lib/components/widgets/SelectWidget.js';
import type { WidgetProps } from '@rjsf/utils';

/**
 * The props form's choice (an `enum`, a choice of constants): the library's own, but its unchosen first option says
 * "Choose…", as the page's other lists do, where the library's was empty: a screen reader read the box, required
 * and unchosen, as "blank", and the option as nameless.
 */
export function PropsSelectWidget(props: WidgetProps) {
  return <SelectWidget {...props} placeholder={props.placeholder || 'Choose…'} />;
}
