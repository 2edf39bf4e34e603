import { describe, expect, it } from 'vitest';
import { defaultDataDir, isPlatformDataDir, platformDataDir } from './dataDir.js';

describe('defaultDataDir', () => {
  it('prefers HOMEBODY_DATA_DIR', () => {
    expect(defaultDataDir({ HOMEBODY_DATA_DIR: '/data/hb' }, 'linux')).toBe('/data/hb');
  });
  it('follows XDG on Linux', () => {
    expect(defaultDataDir({ XDG_CONFIG_HOME: '/cfg' }, 'linux')).toBe('/cfg/Homebody');
  });
  it('uses APPDATA on Windows', () => {
    expect(defaultDataDir({ APPDATA: 'C:/Users/a/AppData/Roaming' }, 'win32')).toMatch(/Roaming[\\/]Homebody$/);
  });
});

describe('the folder Homebody names for itself', () => {
  it('is the platform folder, whatever HOMEBODY_DATA_DIR says', () => {
    const env = { HOMEBODY_DATA_DIR: '/data/hb', XDG_CONFIG_HOME: '/cfg' };
    expect(platformDataDir(env, 'linux')).toBe('/cfg/Homebody');
    expect(isPlatformDataDir('/cfg/Homebody/', env, 'linux')).toBe(true);
    expect(isPlatformDataDir('/cfg/other/../Homebody', env, 'linux')).toBe(true);
  });
  it('is not a folder the user chose, nor one above or below it', () => {
    const env = { XDG_CONFIG_HOME: '/cfg' };
    for (const dir of ['/data/hb', '/cfg', '/cfg/Homebody/notes', '/home/me'])
      expect({ dir, own: isPlatformDataDir(dir, env, 'linux') }).toEqual({ dir, own: false });
  });
});
