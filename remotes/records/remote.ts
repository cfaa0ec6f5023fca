import { defineRemote } from '../remote-declaration';

/**
 * team_records: the signed-in components (tenant switcher, record actions, timeline, dashboard widgets) and the
 * resource-form components. The one list of what this remote provides.
 */
export const recordsRemote = defineRemote({
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
