import { cpSync, existsSync, mkdirSync, readdirSync, realpathSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { ToolExecutor } from '../tools/sandbox/toolExecutor.js';
import { ToolError, type GrantedRoot, type PackConfig } from '../tools/toolTypes.js';
import { appRoot } from '../util/appPaths.js';

/** The fixture tree's parts (resources/eval/fixtures): what the built-in tools see during an evaluation. */
const PARTS = ['files', 'calendar', 'contacts', 'notes', 'mailbox'] as const;

/**
 * A copy of the evaluation fixtures (a folder of documents, a calendar, contacts, notes, a mailbox, reminders)
 * that the built-in tools run against, so a case never touches the user's real data. The paths stay the same for
 * a whole run, so the sandboxed tool worker keeps running; the contents are restored before a case whenever an
 * earlier case may have changed them.
 */
export class FixtureWorkspace {
  readonly roots: readonly GrantedRoot[];
  readonly packs: PackConfig;
  readonly trashDir: string;
  private dirty = true;

  constructor(
    private readonly template: string,
    private readonly base: string,
  ) {
    if (!existsSync(join(template, 'files'))) {
      throw new Error(`The evaluation fixtures are missing: expected ${join(template, 'files')}`);
    }
    mkdirSync(base, { recursive: true });
    for (const part of [...PARTS, 'drafts', 'trash']) mkdirSync(join(base, part), { recursive: true });
    const real = realpathSync(base);
    this.trashDir = join(real, 'trash');
    this.roots = [{ path: join(real, 'files'), untrusted: false }];
    this.packs = {
      calendarDir: join(real, 'calendar'),
      contactsDir: join(real, 'contacts'),
      notesDir: join(real, 'notes'),
      mailDir: join(real, 'drafts'),
      remindersFile: join(real, 'reminders', 'reminders.json'),
      mailSource: { kind: 'maildir', path: join(real, 'mailbox') },
      smtp: null,
      imap: null,
      searchEndpoint: null,
      timeZone: 'UTC',
      // Evaluations never reach the network: web tools answer from the case's scripted results or fail.
      offline: true,
    };
  }

  /** Restores the fixtures if a call since the last reset may have changed them. */
  prepare(): void {
    if (!this.dirty) return;
    for (const part of [...PARTS, 'drafts', 'trash', 'reminders']) {
      const target = join(this.base, part);
      // Emptied in place, not removed: the tool worker's sandbox binds these folders, and a new folder at the same
      // path is another folder, which would need a new worker.
      mkdirSync(target, { recursive: true });
      for (const name of readdirSync(target)) rmSync(join(target, name), { recursive: true, force: true });
      const source = join(this.template, part);
      if (existsSync(source)) cpSync(source, target, { recursive: true });
      else mkdirSync(target, { recursive: true });
    }
    const reminders = join(this.template, 'reminders.json');
    if (existsSync(reminders)) cpSync(reminders, this.packs.remindersFile);
    for (const empty of ['cur', 'new', 'tmp']) mkdirSync(join(this.base, 'mailbox', empty), { recursive: true });
    this.dirty = false;
  }

  /** A call that may write ran: restore before the next case. */
  markDirty(): void {
    this.dirty = true;
  }

  dispose(): void {
    rmSync(this.base, { recursive: true, force: true });
  }
}

/**
 * The sandboxed tool worker for an evaluation, on the workspace's folders. Evaluations never leave the machine nor
 * use the desktop: a tool that would connect or reach the clipboard, other apps or notifications is told so.
 */
export function evalExecutor(workspace: FixtureWorkspace): ToolExecutor {
  return new ToolExecutor({
    trashDir: workspace.trashDir,
    codeRoots: [appRoot()],
    services: async (request) => {
      if (request.kind === 'connection') return null;
      if (request.kind === 'egress') {
        throw new ToolError('NETWORK_BLOCKED', 'Evaluations run offline: no connection is made.');
      }
      throw new ToolError('UNAVAILABLE', 'Evaluations do not use the clipboard, other apps or notifications.');
    },
  });
}
