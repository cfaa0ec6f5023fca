import { defineRemote } from '@slots-platform/remote-kit';
import { propsSchema, Type } from '@slots-platform/remote-kit/schema';

/**
 * What this remote provides: every component is `components/<Component>.tsx`, exposed as `./<Component>`, declared
 * here with the schema of the props a slot gives it. The build writes each schema into `slots-remote.json`; the
 * server checks every slot's props against it at start-up, and the component's props type is inferred from it.
 * `formComponents` lists those a resource form may place among its fields.
 */
export default defineRemote({
  name: '{{REMOTE_NAME}}',
  components: {
    Hello: propsSchema({ name: Type.String() }),
  },
  formComponents: [],
});
