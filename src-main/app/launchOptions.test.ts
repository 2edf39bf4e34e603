import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseLaunchArgs, resolveDataDir } from './launchOptions.js';

const cwd = path.resolve('/home/user');

describe('parseLaunchArgs', () => {
  it('reads both spellings of each flag among Electron and Chromium arguments', () => {
    expect(
      parseLaunchArgs(['/opt/electron', '.', '--enable-logging', '--data-dir', '/data/hb', '--model=m.gguf'], cwd),
    ).toEqual({ dataDir: path.resolve('/data/hb'), modelPath: path.join(cwd, 'm.gguf') });
    expect(parseLaunchArgs(['homebody', '--data-dir=rel/dir', '--model', '/models/x.gguf'], cwd)).toEqual({
      dataDir: path.join(cwd, 'rel', 'dir'),
      modelPath: path.resolve('/models/x.gguf'),
    });
  });

  it('ignores a flag without a value and unknown flags', () => {
    expect(parseLaunchArgs(['app', '--data-dir', '--model'], cwd)).toEqual({});
    expect(parseLaunchArgs(['app', '--data-dir='], cwd)).toEqual({});
    expect(parseLaunchArgs(['app', '--data-directory', 'x', '--models=y'], cwd)).toEqual({});
  });

  it('lets the last occurrence win', () => {
    expect(parseLaunchArgs(['app', '--model', 'a.gguf', '--model', 'b.gguf'], cwd).modelPath).toBe(
      path.join(cwd, 'b.gguf'),
    );
  });
});

describe('resolveDataDir', () => {
  const userData = path.resolve('/home/user/.config/Homebody');
  it('prefers the argument, then HOMEBODY_DATA_DIR, then userData', () => {
    const fromArg = path.resolve('/arg');
    expect(resolveDataDir({ dataDir: fromArg }, { HOMEBODY_DATA_DIR: '/env' }, userData)).toBe(fromArg);
    expect(resolveDataDir({}, { HOMEBODY_DATA_DIR: '/env' }, userData)).toBe(path.resolve('/env'));
    expect(resolveDataDir({}, { HOMEBODY_DATA_DIR: '  ' }, userData)).toBe(userData);
    expect(resolveDataDir({}, {}, userData)).toBe(userData);
  });
});
