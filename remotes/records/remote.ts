import { defineRemote } from '../kit';
import { formFieldName, propsSchema, Type } from '../kit/schema';

const link = Type.Object({ label: Type.String(), href: Type.String() });
/** The name of a field of the form the component sits in: the product refuses a form slot naming one it lacks. */
const fieldName = formFieldName();

/**
 * team_records: the signed-in components (tenant switcher, record actions, timeline, dashboard widgets) and the
 * resource-form components. The one list of what this remote provides, each component with the schema of the props
 * a slot gives it; the host adds the context props (`resource`, `formContext` in a form; `resource`, `resourceId`,
 * `record` at a record action location), which the schemas leave out.
 */
export default defineRemote({
  name: 'team_records',
  components: {
    TenantSwitcher: propsSchema({}),
    CopyLinkAction: propsSchema({}),
    ExportJsonAction: propsSchema({ filenamePrefix: Type.String() }),
    ActivityTimeline: propsSchema({ limit: Type.Integer({ minimum: 1 }) }),
    RelatedHint: propsSchema({ text: Type.String() }),
    EditingTips: propsSchema({ tips: Type.Array(Type.String()) }),
    SaveNote: propsSchema({ text: Type.String() }),
    ShortcutLinks: propsSchema({ links: Type.Array(link) }),
    SlugPreview: propsSchema({ source: fieldName, target: fieldName }),
    SearchSnippetPreview: propsSchema({ titleField: fieldName, bodyField: fieldName }),
  },
  formComponents: ['SlugPreview', 'SearchSnippetPreview'],
});
