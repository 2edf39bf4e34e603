import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
// electron-builder's own reader and schema (app-builder-lib is its core): the test sees the file as packaging will.
import { getConfig, validateConfiguration } from 'app-builder-lib/out/util/config/config.js';
import type { Configuration } from 'app-builder-lib';
import { DebugLogger } from 'builder-util';
import { beforeAll, describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

let config: Configuration;
beforeAll(async () => {
  config = await getConfig(ROOT, path.join(ROOT, 'electron-builder.yml'), null);
});

describe('electron-builder.yml', () => {
  it('is valid for electron-builder, fuses included', async () => {
    await expect(validateConfiguration(config, new DebugLogger(false))).resolves.toBeUndefined();
    // A misspelt fuse would be ignored silently by the packager; the schema is what catches it.
    const misspelt = { ...config, electronFuses: { ...config.electronFuses, runAsNod: false } } as Configuration;
    await expect(validateConfiguration(misspelt, new DebugLogger(false))).rejects.toThrow(/electronFuses/);
  });

  it('flips every fuse the security checklist asks for', () => {
    expect(config.electronFuses).toEqual({
      runAsNode: runAsNodeNeeded(),
      enableCookieEncryption: true,
      enableNodeOptionsEnvironmentVariable: false,
      enableNodeCliInspectArguments: false,
      enableEmbeddedAsarIntegrityValidation: true,
      onlyLoadAppFromAsar: true,
      loadBrowserProcessSpecificV8Snapshot: false,
      grantFileProtocolExtraPrivileges: false,
    });
  });

  it('keeps runAsNode on only while the tool worker is forked with ELECTRON_RUN_AS_NODE', () => {
    // The day the worker moves to utilityProcess this fails, and the fuse goes off with it.
    expect(runAsNodeNeeded()).toBe(true);
    expect(config.electronFuses?.runAsNode).toBe(true);
  });

  it('packs the app in an asar and unpacks only native binaries, never app code', () => {
    expect(config.asar).toBe(true);
    const unpacked = [config.asarUnpack ?? []].flat();
    expect(unpacked.length).toBeGreaterThan(0);
    for (const pattern of unpacked) expect(pattern, pattern).toMatch(/^node_modules\//);
  });
});

/**
 * Whether the tool worker still relies on Electron running as Node: toolExecutor.ts starts the app's own binary
 * (process.execPath) with ELECTRON_RUN_AS_NODE, and osSandbox.ts spawns it (inside bwrap or sandbox-exec, or not).
 */
function runAsNodeNeeded(): boolean {
  const read = (name: string) => readFileSync(path.join(ROOT, 'src-main', 'tools', 'sandbox', name), 'utf8');
  const executor = read('toolExecutor.ts');
  return (
    executor.includes('process.execPath') &&
    executor.includes('ELECTRON_RUN_AS_NODE') &&
    /\bspawn\(/.test(read('osSandbox.ts'))
  );
}
