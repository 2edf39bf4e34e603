import { describe, expect, it } from 'vitest';
import { isWithin, NETWORK_SYSTEM_FILES, sandboxSpec, type SandboxInputs } from './sandboxSpec.js';

const inputs: SandboxInputs = {
  roots: [
    { path: '/home/ana/Docs', identity: { dev: '2049', ino: '131' } },
    { path: '/home/ana/.local/share/Homebody/models' },
    { path: '/home/ana/.local/share/Homebody/notes/work' },
  ],
  packs: {
    write: ['/home/ana/.local/share/Homebody/calendar', '/home/ana/.local/share/Homebody/notes', '/home/ana/Mail/out'],
    read: ['/home/ana/Mail/in'],
  },
  mail: { write: ['/home/ana/Mail/out'], read: ['/home/ana/Mail/in'] },
  trashDir: '/home/ana/.local/share/Homebody/trash',
  code: ['/opt/Homebody/worker.js', '/opt/Homebody/worker.js'],
  sysfs: ['/sys/class/net'],
  hidden: ['/home/ana/.local/share/Homebody/'],
};

describe('sandboxSpec', () => {
  it('files: the grants, the packs and the trash writable, the mail source read-only, no network', () => {
    const spec = sandboxSpec('files', inputs);
    expect(spec.network).toBe(false);
    expect(spec.write).toEqual([
      { path: '/home/ana/Docs', identity: { dev: '2049', ino: '131' } },
      { path: '/home/ana/.local/share/Homebody/notes/work' },
      { path: '/home/ana/.local/share/Homebody/calendar' },
      { path: '/home/ana/.local/share/Homebody/notes' },
      { path: '/home/ana/Mail/out' },
      { path: '/home/ana/.local/share/Homebody/trash' },
    ]);
    expect(spec.read).toEqual([{ path: '/home/ana/Mail/in' }]);
    expect(spec.code).toEqual(['/opt/Homebody/worker.js']);
    expect(spec.system).toEqual(['/sys/class/net']);
    expect(spec.hidden).toEqual(['/home/ana/.local/share/Homebody']);
  });

  it("leaves out a grant inside the data folder unless it lies in a pack's folder or the trash", () => {
    const paths = sandboxSpec('files', inputs).write.map((f) => f.path);
    expect(paths).not.toContain('/home/ana/.local/share/Homebody/models');
    expect(paths).toContain('/home/ana/.local/share/Homebody/notes/work');
    // The data folder itself, granted, is not shown either.
    const whole = sandboxSpec('files', { ...inputs, roots: [{ path: '/home/ana/.local/share/Homebody' }] });
    expect(whole.write.map((f) => f.path)).not.toContain('/home/ana/.local/share/Homebody');
  });

  it('keeps one entry per folder, with the identity the grant has', () => {
    const spec = sandboxSpec('files', {
      ...inputs,
      roots: [{ path: '/home/ana/Mail/out', identity: { dev: '1', ino: '2' } }],
    });
    expect(spec.write.filter((f) => f.path === '/home/ana/Mail/out')).toEqual([
      { path: '/home/ana/Mail/out', identity: { dev: '1', ino: '2' } },
    ]);
  });

  it('network: the mail folders and the resolver files, no granted folder, no trash, no sysfs', () => {
    const spec = sandboxSpec('network', inputs);
    expect(spec.network).toBe(true);
    expect(spec.write).toEqual([{ path: '/home/ana/Mail/out' }]);
    expect(spec.read).toEqual([{ path: '/home/ana/Mail/in' }]);
    expect(spec.system).toEqual(NETWORK_SYSTEM_FILES);
    expect(spec.system).toContain('/etc/resolv.conf');
    // The CA certificates, never the folder that also holds the machine's private keys.
    expect(spec.system).not.toContain('/etc/ssl');
    expect(spec.hidden).toEqual(['/home/ana/.local/share/Homebody']);
  });

  it('isWithin compares whole path components', () => {
    expect(isWithin('/a/b', '/a/b')).toBe(true);
    expect(isWithin('/a/b', '/a/b/c')).toBe(true);
    expect(isWithin('/a/b', '/a/bc')).toBe(false);
    expect(isWithin('/', '/etc')).toBe(true);
  });
});
