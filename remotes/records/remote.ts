import { defineRemote } from '../kit';

/**
 * team_records: the signed-in components (tenant switcher, record actions, timeline, dashboard widgets) and the
 * resource-form components. The one list of what this remote provides.
 */
export default defineRemote({
  name: 'team_records',
  components: [
    'TenantSwitcher',
    'CopyLinkAction',
    'ExportJsonAction',
    'ActivityTimeline',
    'RelatedHint',
    'EditingTips',
    'SaveNote',
    'ShortcutLinks',
    'SlugPreview',
    'SearchSnippetPreview',
  ],
  formComponents: ['SlugPreview', 'SearchSnippetPreview'],
});
