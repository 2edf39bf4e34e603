import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { PACKAGED_SQLITE_BINDING, sqliteNativeBinding } from './sqliteBinding.js';

const resources = path.resolve('/opt/Homebody/resources');
const unpacked = path.join(resources, PACKAGED_SQLITE_BINDING);

describe('sqliteNativeBinding', () => {
  it('uses HOMEBODY_SQLITE_BINDING first, as the start script sets it', () => {
    const env = { HOMEBODY_SQLITE_BINDING: '/repo/build/electron-native/better_sqlite3.node' };
    expect(sqliteNativeBinding({ env, isPackaged: true, resourcesPath: resources, exists: () => true })).toBe(
      path.resolve('/repo/build/electron-native/better_sqlite3.node'),
    );
  });

  it('finds the unpacked addon of a packaged app', () => {
    const exists = (file: string) => file === unpacked;
    expect(sqliteNativeBinding({ env: {}, isPackaged: true, resourcesPath: resources, exists })).toBe(unpacked);
  });

  it('leaves the choice to better-sqlite3 otherwise', () => {
    expect(sqliteNativeBinding({ env: {}, isPackaged: false, resourcesPath: resources, exists: () => true })).toBe(
      undefined,
    );
    expect(sqliteNativeBinding({ env: {}, isPackaged: true, resourcesPath: resources, exists: () => false })).toBe(
      undefined,
    );
    expect(sqliteNativeBinding({ env: {}, isPackaged: true, resourcesPath: undefined, exists: () => true })).toBe(
      undefined,
    );
  });
});
