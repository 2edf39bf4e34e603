import { describe, expect, it } from 'vitest';
import { defaultDataDir } from './dataDir.js';

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
