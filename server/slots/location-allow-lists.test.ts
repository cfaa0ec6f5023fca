import { SlotLocation } from '../../shared';
import { LocationAllowLists } from './location-allow-lists';

describe('LocationAllowLists.undeclaredRemotes', () => {
  it('names the listed remotes no declared remote is called, per location, saying which list gave them', () => {
    const configured = { locationRemotes: new Map([[SlotLocation.HEADER_BANNER, ['team_news', 'team_newz']]]) };
    const lists = new LocationAllowLists(() => configured);
    lists.set({ 'dashboard-before-cards': ['team_billing', 'team_biling'], 'header-banner': ['team_billing'] });

    expect(lists.undeclaredRemotes(['team_billing', 'team_news'])).toEqual([
      'The remotes allowed at dashboard-before-cards (allowRemotes) include "team_biling", which no remote is ' +
        'called (remotes: team_billing, team_news): is a name misspelt?',
      // REMOTES_CONFIG's list replaces code's at the locations it names: only its names are in force there.
      'The remotes allowed at header-banner (REMOTES_CONFIG\'s "locations") include "team_newz", which no remote ' +
        'is called (remotes: team_billing, team_news): is a name misspelt?',
    ]);
    expect(lists.undeclaredRemotes(['team_billing', 'team_biling', 'team_news', 'team_newz'])).toEqual([]);
  });
});
