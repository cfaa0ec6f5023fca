import { defineRemote } from '../kit';
import { propsSchema, Type } from '../kit/schema';

const link = Type.Object({ label: Type.String(), href: Type.String() });

/**
 * team_marketing: the sign-in page and the global chrome. The one list of what this remote provides, each component
 * with the schema of the props a slot gives it (its props type is inferred from it).
 */
export default defineRemote({
  name: 'team_marketing',
  components: {
    MaintenanceNotice: propsSchema({
      message: Type.String(),
      severity: Type.Union([Type.Literal('info'), Type.Literal('warning')]),
    }),
    SystemStatus: propsSchema({
      status: Type.Union([Type.Literal('operational'), Type.Literal('degraded')]),
      text: Type.String(),
    }),
    FooterLinks: propsSchema({ links: Type.Array(link) }),
    LoginNotice: propsSchema({ title: Type.String(), text: Type.String() }),
    // Its text is the slot's content (children), not a prop.
    Callout: propsSchema({
      tone: Type.Union([Type.Literal('info'), Type.Literal('success'), Type.Literal('warning')]),
    }),
    AccountHelp: propsSchema({ topics: Type.Array(Type.Object({ question: Type.String(), answer: Type.String() })) }),
    LoginSidebarPromo: propsSchema({
      title: Type.String(),
      body: Type.String(),
      linkLabel: Type.String(),
      href: Type.String(),
    }),
    WelcomeCard: propsSchema({ title: Type.String() }),
  },
  formComponents: [],
});
