import { defineRemote } from '@slots-platform/remote-kit';

/**
 * What this remote provides: every component is `components/<Component>.tsx`, exposed as `./<Component>`.
 * `formComponents` lists those a resource form may place among its fields.
 */
export default defineRemote({
  name: '__REMOTE_NAME__',
  components: ['Hello'],
  formComponents: [],
});
