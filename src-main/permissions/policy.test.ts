import { mkdirSync, mkdtempSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { emptyPolicy, grantFolder, modeFor, parsePolicy, revokeFolder } from './policy.js';

const dir = realpathSync(mkdtempSync(join(tmpdir(), 'hb-policy-')));
const risks: Record<string, 'read' | 'write' | 'irreversible'> = {
  list_folder: 'read',
  move: 'write',
  delete_permanently: 'irreversible',
};
const riskOf = (tool: string) => risks[tool];

describe('policy', () => {
  it('defaults by risk: reads and writes ask, irreversible actions queue', () => {
    const policy = emptyPolicy();
    expect(modeFor(policy, 'list_folder', 'read')).toBe('ask');
    expect(modeFor(policy, 'move', 'write')).toBe('ask');
    expect(modeFor(policy, 'delete_permanently', 'irreversible')).toBe('queue');
    expect(modeFor({ ...policy, tools: { move: 'auto' } }, 'move', 'write')).toBe('auto');
  });

  it('keeps granted folders as real paths, once each', () => {
    const reports = join(dir, 'Reports');
    mkdirSync(reports);
    const link = join(dir, 'reports-link');
    symlinkSync(reports, link);
    let policy = grantFolder(emptyPolicy(), { path: link, untrusted: false });
    policy = grantFolder(policy, { path: reports, untrusted: true });
    // Bound to the folder itself (device and inode), not only its path.
    expect(policy.folders).toEqual([{ path: reports, untrusted: true, identity: expect.objectContaining({}) }]);
    expect(policy.folders[0]?.identity?.ino).toMatch(/^\d+$/);
    expect(revokeFolder(policy, link).folders).toEqual([]);
  });

  it('refuses folders that do not exist or are files', () => {
    expect(() => grantFolder(emptyPolicy(), { path: join(dir, 'nope'), untrusted: false })).toThrow(/no folder at/);
    const file = join(dir, 'file.txt');
    writeFileSync(file, 'x');
    expect(() => grantFolder(emptyPolicy(), { path: file, untrusted: false })).toThrow(/is a file, not a folder/);
  });

  it('imports a valid policy and names what is wrong with a bad one', () => {
    const raw = { version: 1, tools: { move: 'auto', unknown_tool: 'off' }, folders: [{ path: dir }] };
    expect(parsePolicy(raw, riskOf)).toEqual({
      version: 1,
      tools: { move: 'auto', unknown_tool: 'off' },
      folders: [
        { path: dir, untrusted: false, identity: expect.objectContaining({ ino: expect.stringMatching(/^\d+$/) }) },
      ],
    });
    expect(() => parsePolicy({ version: 1, tools: { move: 'sometimes' }, folders: [] }, riskOf)).toThrow(
      /not a Homebody policy.*tools\.move/s,
    );
    expect(() => parsePolicy({ version: 1, tools: { delete_permanently: 'auto' }, folders: [] }, riskOf)).toThrow(
      /cannot be undone.*always waits in the approval queue/,
    );
    expect(() => parsePolicy([], riskOf)).toThrow(/not a Homebody policy/);
  });
});
