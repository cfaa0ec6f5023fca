import fs from 'node:fs';
import path from 'node:path';
import { makeTempDir, type TempDir } from '../../testing/temp-dir';
import { BUILD_IDENTITY_FILE, readBuildIdentity, UNKNOWN_BUILD } from './build-identity';

let dir: TempDir;
beforeEach(() => (dir = makeTempDir('slots-build-identity-')));
afterEach(() => dir.remove());

describe('readBuildIdentity', () => {
  it('reads what the build recorded', () => {
    const file = path.join(dir.path, BUILD_IDENTITY_FILE);
    const recorded = { revision: '0123456789ab-dirty', dirty: true, builtAt: '2026-11-29T17:00:00.000Z' };
    fs.writeFileSync(file, JSON.stringify(recorded));
    expect(readBuildIdentity(file)).toEqual(recorded);
  });

  it('says unknown, never throws, for a server never built or a record unreadable', () => {
    expect(readBuildIdentity(path.join(dir.path, 'none.json'))).toEqual(UNKNOWN_BUILD);
    const file = path.join(dir.path, BUILD_IDENTITY_FILE);
    fs.writeFileSync(file, '{ half');
    expect(readBuildIdentity(file)).toEqual(UNKNOWN_BUILD);
    fs.writeFileSync(file, JSON.stringify({ revision: 7 }));
    expect(readBuildIdentity(file)).toEqual(UNKNOWN_BUILD);
  });
});
