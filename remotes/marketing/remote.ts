import { defineRemote } from '../kit';

/** team_marketing: the sign-in page and the global chrome. The one list of what this remote provides. */
export default defineRemote({
  name: 'team_marketing',
  components: [
    'MaintenanceNotice',
    'SystemStatus',
    'FooterLinks',
    'LoginNotice',
    'Callout',
    'AccountHelp',
    'LoginSidebarPromo',
    'WelcomeCard',
  ],
  formComponents: [],
});
