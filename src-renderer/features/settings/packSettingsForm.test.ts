import { describe, expect, it } from 'vitest';
import type { PackSettingsView } from '../../../src-shared/contract/index.js';
import { fieldOfHostError, inputsFromView, patchFromInputs, type PackInputs } from './packSettingsForm.js';

const VIEW: PackSettingsView = {
  calendarDir: '',
  contactsDir: '/home/me/Contacts',
  notesDir: '',
  mailDir: '',
  mailSource: { kind: 'maildir', path: '/home/me/Maildir' },
  smtp: { host: 'smtp.example.org', port: 587, secure: false, user: 'me', from: 'me@example.org' },
  imap: null,
  searchEndpoint: 'https://searx.example/search',
  timeZone: 'Europe/Lisbon',
  resolved: {
    calendarDir: '/data/calendar',
    contactsDir: '/home/me/Contacts',
    notesDir: '/data/notes',
    mailDir: '/data/mail',
  },
  smtpPasswordSet: true,
  imapPasswordSet: false,
  trustedCertificates: { imap: null, smtp: null },
};

const edit = (change: (inputs: PackInputs) => void): PackInputs => {
  const inputs = inputsFromView(VIEW);
  change(inputs);
  return inputs;
};

describe('pack settings form', () => {
  it('round-trips what the Host holds, leaving passwords and trusted certificates out (a save keeps them)', () => {
    const inputs = inputsFromView(VIEW);
    expect(inputs.smtp.password).toBe('');
    expect(inputs.imap).toMatchObject({ enabled: false, port: '993' });
    const { patch, problems } = patchFromInputs(inputs);
    expect(problems).toEqual({});
    // A certificate is trusted only through packs.trustCertificate, never by saving the form.
    const {
      resolved: _resolved,
      smtpPasswordSet: _s,
      imapPasswordSet: _i,
      trustedCertificates: _t,
      ...settings
    } = VIEW;
    expect(patch).toEqual(settings);
    expect(patch).not.toHaveProperty('smtpPassword');
    expect(patch).not.toHaveProperty('imapPassword');
  });

  it('sends a typed password, null to remove one, and nothing when left empty', () => {
    const typed = patchFromInputs(edit((i) => (i.smtp.password = 'hunter2'))).patch;
    expect(typed.smtpPassword).toBe('hunter2');
    const cleared = patchFromInputs(edit((i) => (i.smtp.clearPassword = true))).patch;
    expect(cleared.smtpPassword).toBeNull();
    expect(cleared).not.toHaveProperty('imapPassword');
  });

  it('turns an empty endpoint into web search off, trims, and a server switched off into null', () => {
    const { patch } = patchFromInputs(
      edit((i) => {
        i.searchEndpoint = '  ';
        i.timeZone = ' Asia/Tokyo ';
        i.smtp.enabled = false;
        i.mailKind = 'none';
      }),
    );
    expect(patch).toMatchObject({
      searchEndpoint: null,
      timeZone: 'Asia/Tokyo',
      smtp: null,
      mailSource: { kind: 'none' },
    });
  });

  it('checks only what the request needs: ports, hosts of servers turned on, a mail path', () => {
    const { problems } = patchFromInputs(
      edit((i) => {
        i.smtp.port = '58x';
        i.imap.enabled = true;
        i.imap.port = '70000';
        i.mailKind = 'mbox';
        i.mailPath = '';
      }),
    );
    expect(Object.keys(problems).sort()).toEqual(['imap.host', 'imap.port', 'mail.path', 'smtp.port']);
    // Time zones and folders are the Host's to judge: anything typed goes through.
    expect(patchFromInputs(edit((i) => (i.timeZone = 'Mars/Olympus'))).problems).toEqual({});
  });

  it("points the Host's refusals at their field", () => {
    expect(fieldOfHostError('"Mars/Olympus" is not a time zone (try e.g. Europe/Lisbon).')).toBe('timeZone');
    expect(fieldOfHostError('Invalid packs.setSettings request: searchEndpoint: Invalid URL')).toBe('searchEndpoint');
    expect(fieldOfHostError('Invalid packs.setSettings request: smtp.from: Too small')).toBe('smtp.from');
    expect(fieldOfHostError('The notes folder relative/path must be an absolute path')).toBe('notesDir');
    expect(fieldOfHostError('Reading mail over IMAP needs the IMAP server settings first.')).toBe('imap.host');
    expect(fieldOfHostError('The database is locked.')).toBeNull();
  });
});
