// @vitest-environment happy-dom
import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { PackSettingsView, ToolInfo } from '../../../src-shared/contract/index.js';
import { fakeHost } from '../../testing/fakeHost.js';
import { renderWithStore } from '../../testing/renderWithStore.js';
import { SettingsPage } from './SettingsPage.js';

const PARAMETERS = { type: 'object', properties: {} };

/** As tools.list answers them (src-main/tools/builtin: clipboard.ts, writeText.ts; an MCP server's tool). */
const TOOLS: ToolInfo[] = [
  {
    name: 'clipboard_write',
    description: 'Copy text to the clipboard, so the user can paste it elsewhere.',
    risk: 'write',
    parameters: PARAMETERS,
    title: 'Copy to the clipboard',
    text: 'Puts text on the clipboard, for you to paste elsewhere.',
    touches: 'device',
  },
  {
    name: 'write_text',
    description: 'Create a text file, or replace the whole content of an existing one. Set overwrite to false…',
    risk: 'write',
    parameters: PARAMETERS,
    title: 'Write a text file',
    text: 'Creates a text file or replaces its text; a replaced file can be brought back with Undo.',
    touches: 'files',
  },
  {
    name: 'mcp_everything_echo',
    description: 'Echoes back the input string.',
    risk: 'write',
    parameters: PARAMETERS,
    alwaysAsk: true,
    title: 'echo',
    text: 'Echoes back the input string.',
    touches: null,
  },
];

const PACKS: PackSettingsView = {
  calendarDir: '',
  contactsDir: '',
  notesDir: '',
  mailDir: '',
  mailSource: { kind: 'none' },
  smtp: null,
  imap: null,
  searchEndpoint: null,
  timeZone: 'Europe/Lisbon',
  resolved: { calendarDir: '/d/calendar', contactsDir: '/d/contacts', notesDir: '/d/notes', mailDir: '/d/mail' },
  smtpPasswordSet: false,
  imapPasswordSet: false,
  trustedCertificates: { imap: null, smtp: null },
};

function render() {
  const host = fakeHost({
    'policy.get': () => ({ version: 1, tools: {}, folders: [] }),
    'policy.folders': () => ({ folders: [] }),
    'tools.list': () => TOOLS,
    'packs.settings': () => PACKS,
    'mcp.list': () => ({ servers: [] }),
  });
  return renderWithStore(<SettingsPage />, host);
}

async function row(name: string) {
  const rows = await screen.findAllByTestId('tool-row');
  const found = rows.find((r) => r.dataset.tool === name);
  if (!found) throw new Error(`no row for ${name}`);
  return within(found);
}

describe('the tools in Settings', () => {
  it('shows each tool by its title and words for people, badged by what it touches', async () => {
    render();
    const clipboard = await row('clipboard_write');
    expect(clipboard.getByTestId('tool-title').textContent).toBe('Copy to the clipboard');
    expect(clipboard.getByTestId('tool-text').textContent).toBe(
      'Puts text on the clipboard, for you to paste elsewhere.',
    );
    // The clipboard is no file: a write there uses the device.
    expect(clipboard.getByTestId('tool-badge').textContent).toBe('Uses your device');

    const write = await row('write_text');
    expect(write.getByTestId('tool-title').textContent).toBe('Write a text file');
    expect(write.getByTestId('tool-text').textContent).toContain('brought back with Undo');
    expect(write.getByTestId('tool-badge').textContent).toBe('Changes files');
    // The name stays, for the policy file and the command line.
    expect(write.getByText('write_text')).toBeTruthy();
  });

  it('keeps what the model is told out of the way, and shows it only where it says more', async () => {
    render();
    const write = await row('write_text');
    const told = write.getByTestId('tool-model-text');
    expect(told.tagName).toBe('DETAILS');
    expect(within(told).getByText('What the assistant is told')).toBeTruthy();
    expect(told.textContent).toContain('Set overwrite to false');
    expect(write.getByTestId('tool-text').textContent).not.toContain('overwrite');
    // An MCP tool's text is its description: nothing more to show.
    expect((await row('mcp_everything_echo')).queryByTestId('tool-model-text')).toBeNull();
  });

  it('badges a tool whose touches are not known by its risk alone', async () => {
    render();
    const echo = await row('mcp_everything_echo');
    expect(echo.getByTestId('tool-title').textContent).toBe('echo');
    expect(echo.getByTestId('tool-badge').textContent).toBe('Changes things');
  });
});
