import { NotesResource } from '../../testing/server/notes-resource';
import { ResourceRegistry } from '../resources/resource-registry';
import { ModuleRegistry } from './module-registry';
import { NavigationDefinitionError } from './navigation-definition';

describe('ModuleRegistry', () => {
  it('refuses a module listing a resource not registered, naming those that are', () => {
    const resources = new ResourceRegistry();
    resources.register(new NotesResource());
    const modules = new ModuleRegistry(resources);
    const register = () => modules.register({ name: 'billing', label: 'Billing', resources: ['notes', 'invoices'] });
    expect(register).toThrow(NavigationDefinitionError);
    expect(register).toThrow(
      'Module "billing" lists resource "invoices", which is not registered (registered: notes; register resources ' +
        'before modules).',
    );
    expect(modules.list()).toEqual([]);
  });

  it('says so when no resource is registered yet', () => {
    const modules = new ModuleRegistry(new ResourceRegistry());
    expect(() => modules.register({ name: 'billing', label: 'Billing', resources: ['invoices'] })).toThrow(
      'Module "billing" lists resource "invoices", which is not registered (none is yet; register resources before ' +
        'modules).',
    );
  });
});
