/**
 * @jest-environment node
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { reactRouterProductionAliases } from './webpack';

const ROOT = path.resolve(__dirname, '../..');

describe('reactRouterProductionAliases', () => {
  it("points a production build at React Router's production files, which exist", () => {
    const aliases = reactRouterProductionAliases('production', ROOT);
    expect(Object.keys(aliases).sort()).toEqual(['react-router$', 'react-router/dom$']);
    for (const file of Object.values(aliases)) {
      expect(file).toMatch(/react-router[\\/]dist[\\/]production[\\/][a-z-]+\.mjs$/);
      expect(existsSync(file)).toBe(true);
    }
  });

  it('leaves a development build, and a folder without React Router, to the package exports', () => {
    expect(reactRouterProductionAliases('development', ROOT)).toEqual({});
    expect(reactRouterProductionAliases('production', path.parse(ROOT).root)).toEqual({});
  });
});
