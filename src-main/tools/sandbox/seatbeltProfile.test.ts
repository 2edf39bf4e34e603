import { describe, expect, it } from 'vitest';
import { sandboxSpec, type SandboxInputs } from './sandboxSpec.js';
import { sbplString, seatbeltProfile } from './seatbeltProfile.js';

// Generated text only: sandbox-exec exists on macOS, and these tests run on Linux.
const DATA = '/Users/ana/Library/Application Support/Homebody';
const inputs: SandboxInputs = {
  roots: [{ path: '/Users/ana/Documents' }, { path: '/' }],
  packs: { write: [`${DATA}/notes`, `${DATA}/mail`], read: ['/Users/ana/Mail "old"'] },
  mail: { write: [`${DATA}/mail`], read: ['/Users/ana/Mail "old"'] },
  trashDir: `${DATA}/trash`,
  code: ['/Applications/Homebody.app/Contents/Resources/app.asar'],
  sysfs: [],
  hidden: [DATA],
};
const seatbelt = {
  execPath: '/Applications/Homebody.app/Contents/MacOS/Homebody',
  runtimeDirs: ['/Applications/Homebody.app/Contents'],
  tmpDir: '/private/tmp/hb-w1',
};

describe('seatbeltProfile', () => {
  it('denies by default, reads the runtime and code, writes the folders, hides the data folder, then shows its packs', () => {
    const text = seatbeltProfile(sandboxSpec('files', inputs), { ...seatbelt, systemRead: ['/System', '/usr/lib'] });
    expect(text).toBe(
      [
        '(version 1)',
        '(deny default)',
        '(allow process-exec (literal "/Applications/Homebody.app/Contents/MacOS/Homebody"))',
        '(allow process-fork)',
        '(allow signal (target self))',
        '(allow sysctl-read)',
        '(allow file-read-metadata)',
        '(allow mach-lookup (global-name "com.apple.system.opendirectoryd.libinfo") ' +
          '(global-name "com.apple.system.notification_center") (global-name "com.apple.system.logger"))',
        '(allow file-read* file-write-data (literal "/dev/null") (literal "/dev/zero"))',
        '(allow file-read* (literal "/dev/random") (literal "/dev/urandom"))',
        '(allow file-read* (subpath "/System") (subpath "/usr/lib") (subpath "/Applications/Homebody.app/Contents") ' +
          '(subpath "/Applications/Homebody.app/Contents/Resources/app.asar") (subpath "/Users/ana/Mail \\"old\\""))',
        '(allow file-read* file-write* (subpath "/Users/ana/Documents") (subpath "/") ' +
          `(subpath "${DATA}/notes") (subpath "${DATA}/mail") (subpath "${DATA}/trash") (subpath "/private/tmp/hb-w1"))`,
        // Later rules win: the data folder is denied even under the grant of /, and its packs allowed again.
        `(deny file-read* file-write* (subpath "${DATA}"))`,
        `(allow file-read* file-write* (subpath "${DATA}/notes") (subpath "${DATA}/mail") (subpath "${DATA}/trash"))`,
        '',
      ].join('\n'),
    );
    expect(text).not.toContain('network');
  });

  it('the network profile may connect and resolve names, and sees no granted folder', () => {
    const text = seatbeltProfile(sandboxSpec('network', inputs), seatbelt);
    expect(text).toContain('(allow network-outbound)\n(allow system-socket)\n');
    expect(text).toContain('(global-name "com.apple.dnssd.service")');
    expect(text).not.toContain('/Users/ana/Documents');
    expect(text).not.toContain('(subpath "/")');
    expect(text).toContain('(subpath "/System")');
  });

  it('writes paths as SBPL strings and refuses one with a control character', () => {
    expect(sbplString('/a "b" \\c')).toBe('"/a \\"b\\" \\\\c"');
    expect(() => sbplString('/a\nb')).toThrow(/control character/);
  });
});
