import { describe, expect, it } from 'vitest';
import { bwrapArgs, planMounts, type MountStep, type SystemEntry } from './bwrapArgs.js';
import type { SandboxSpec } from './sandboxSpec.js';

const SYSTEM: SystemEntry[] = [
  { path: '/usr', kind: 'folder' },
  { path: '/bin', kind: 'symlink', target: 'usr/bin' },
  { path: '/lib64', kind: 'symlink', target: 'usr/lib64' },
  { path: '/etc/localtime', kind: 'symlink', target: '/usr/share/zoneinfo/Europe/Lisbon' },
  { path: '/usr/bin', kind: 'folder' },
];

const DATA = '/home/ana/.local/share/Homebody';
const spec = (over: Partial<SandboxSpec> = {}): SandboxSpec => ({
  profile: 'files',
  code: ['/opt/Homebody/app/worker.js'],
  system: [],
  read: [],
  write: [{ path: '/home/ana/Docs' }, { path: `${DATA}/trash` }, { path: `${DATA}/notes` }],
  hidden: [DATA],
  network: false,
  ...over,
});

const show = (plan: readonly MountStep[]) =>
  plan.map((s) => (s.kind === 'bind' ? `${s.access === 'write' ? 'rw' : 'ro'} ${s.path}` : `${s.kind} ${s.path}`));

describe('planMounts', () => {
  it('binds the runtime, the code and the folders over an empty, read-only root; the data folder is not there', () => {
    expect(show(planMounts(spec(), SYSTEM))).toEqual([
      'dev /dev',
      'proc /proc',
      'tmp /tmp',
      // Links are made as links; /usr/bin lies in /usr already.
      'symlink /bin',
      'symlink /lib64',
      'ro /usr',
      'symlink /etc/localtime',
      'rw /home/ana/Docs',
      'ro /opt/Homebody/app/worker.js',
      // Nothing shows the data folder, but two folders inside it are there: it is an empty read-only folder.
      `hide ${DATA}`,
      `rw ${DATA}/notes`,
      `rw ${DATA}/trash`,
      `readonly ${DATA}`,
      'readonly /',
    ]);
    // With nothing in it, it is simply not there.
    const plan = show(planMounts(spec({ write: [{ path: '/home/ana/Docs' }] }), SYSTEM));
    expect(plan.filter((s) => s.includes(DATA))).toEqual([]);
  });

  it('granting / shows the disk, with fresh /proc and /dev, and an empty read-only data folder with its packs back', () => {
    const plan = show(planMounts(spec({ write: [...spec().write, { path: '/' }] }), SYSTEM));
    expect(plan).toEqual([
      'rw /',
      // /usr, the links, the code, /tmp and /home/ana/Docs are already there through the grant.
      'dev /dev',
      'proc /proc',
      `hide ${DATA}`,
      `rw ${DATA}/notes`,
      `rw ${DATA}/trash`,
      `readonly ${DATA}`,
    ]);
    // The root stays as granted: writable.
    expect(plan).not.toContain('readonly /');
  });

  it('granting the home folder hides the data folder inside it, and the grant of the data folder itself is hidden', () => {
    const home = show(planMounts(spec({ write: [...spec().write, { path: '/home/ana' }] }), SYSTEM));
    expect(home.slice(home.indexOf('rw /home/ana'))).toEqual([
      // /home/ana/Docs lies in the grant already.
      'rw /home/ana',
      'ro /opt/Homebody/app/worker.js',
      `hide ${DATA}`,
      `rw ${DATA}/notes`,
      `rw ${DATA}/trash`,
      `readonly ${DATA}`,
      'readonly /',
    ]);
    const exact = show(planMounts(spec({ write: [{ path: DATA }] }), SYSTEM));
    expect(exact.indexOf(`hide ${DATA}`)).toBeGreaterThan(exact.indexOf(`rw ${DATA}`));
  });

  it('a grant inside /tmp lies over the private /tmp; a grant of /tmp itself replaces it', () => {
    const inside = show(planMounts(spec({ write: [{ path: '/tmp/hb-x/Reports' }], hidden: [] }), SYSTEM));
    expect(inside.indexOf('rw /tmp/hb-x/Reports')).toBeGreaterThan(inside.indexOf('tmp /tmp'));
    const whole = show(planMounts(spec({ write: [{ path: '/tmp' }], hidden: [] }), SYSTEM));
    expect(whole.indexOf('rw /tmp')).toBeGreaterThan(whole.indexOf('tmp /tmp'));
  });

  it('one bind per path with the strongest access; a read-only folder inside a writable one is not bound again', () => {
    const plan = show(
      planMounts(
        spec({
          read: [{ path: '/home/ana/Docs' }, { path: '/home/ana/Docs/Mail' }, { path: '/srv/mail' }],
          write: [{ path: '/home/ana/Docs' }],
          hidden: [],
        }),
        SYSTEM,
      ),
    );
    expect(plan.filter((s) => s.includes('/home/ana/Docs'))).toEqual(['rw /home/ana/Docs']);
    expect(plan).toContain('ro /srv/mail');
  });

  it('a writable folder inside a read-only one is bound writable over it', () => {
    const plan = show(
      planMounts(spec({ read: [{ path: '/srv' }], write: [{ path: '/srv/out' }], hidden: [] }), SYSTEM),
    );
    expect(plan.indexOf('rw /srv/out')).toBeGreaterThan(plan.indexOf('ro /srv'));
  });
});

describe('bwrapArgs', () => {
  it('binds checked folders by descriptor, code and system by path (skipped where missing), then unshares', () => {
    const plan = planMounts(spec({ hidden: [] }), [{ path: '/usr', kind: 'folder' }]);
    const args = bwrapArgs(plan, {
      network: false,
      folderFds: new Map([['/home/ana/Docs', 4]]),
      cwd: '/',
    });
    expect(args).toEqual([
      '--dev',
      '/dev',
      '--proc',
      '/proc',
      '--tmpfs',
      '/tmp',
      '--ro-bind-try',
      '/usr',
      '/usr',
      '--bind-fd',
      '4',
      '/home/ana/Docs',
      '--ro-bind-try',
      '/opt/Homebody/app/worker.js',
      '/opt/Homebody/app/worker.js',
      // No descriptor for it (bwrap before 0.8): bound by its checked path.
      '--bind-try',
      `${DATA}/notes`,
      `${DATA}/notes`,
      '--bind-try',
      `${DATA}/trash`,
      `${DATA}/trash`,
      '--remount-ro',
      '/',
      '--unshare-all',
      '--die-with-parent',
      '--new-session',
      '--chdir',
      '/',
      '--',
    ]);
  });

  it('hides with a tmpfs made read-only at the end, and leaves a granted / writable', () => {
    const plan = planMounts(spec({ write: [{ path: '/' }, { path: `${DATA}/mail` }] }), []);
    const text = bwrapArgs(plan, { network: false, folderFds: new Map([['/', 4]]), cwd: '/' }).join(' ');
    expect(text).toMatch(/^--bind-fd 4 \/ /);
    expect(text).toContain(`--tmpfs ${DATA} --bind-try ${DATA}/mail ${DATA}/mail --remount-ro ${DATA} --unshare-all`);
    expect(text).not.toContain('--remount-ro / ');
  });

  it('binds read-only folders read-only by descriptor, and shares the network only when asked', () => {
    const plan = planMounts(spec({ network: true, read: [{ path: '/srv/mail' }], write: [], hidden: [] }), []);
    const text = bwrapArgs(plan, { network: true, folderFds: new Map([['/srv/mail', 5]]), cwd: '/work' }).join(' ');
    expect(text).toContain('--ro-bind-fd 5 /srv/mail');
    expect(text).toContain('--unshare-all --share-net --die-with-parent --new-session --chdir /work --');
    expect(bwrapArgs(plan, { network: false, folderFds: new Map(), cwd: '/' })).not.toContain('--share-net');
  });

  it('makes links as links', () => {
    const args = bwrapArgs(planMounts(spec({ write: [], hidden: [], code: [] }), SYSTEM), {
      network: false,
      folderFds: new Map(),
      cwd: '/',
    });
    expect(args.join(' ')).toContain('--symlink usr/bin /bin');
    expect(args.join(' ')).toContain('--symlink /usr/share/zoneinfo/Europe/Lisbon /etc/localtime');
  });
});
