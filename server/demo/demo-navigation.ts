import type { DashboardDefinition } from '../meta/dashboard-registry';
import type { ModuleDefinition } from '../meta/module-registry';

export const CONTENT_MODULE: ModuleDefinition = {
  name: 'content',
  label: 'Content',
  resources: ['articles', 'authors'],
};

/** Counts per tenant; cached by the dashboard registry until records change. */
export const OVERVIEW_DASHBOARD: DashboardDefinition = {
  name: 'overview',
  label: 'Overview',
  cards: async ({ tenant, records }) => [
    { title: 'Articles', value: await records.count(tenant.id, 'articles') },
    { title: 'Authors', value: await records.count(tenant.id, 'authors') },
    { title: 'Tenant', value: tenant.name },
  ],
};
