import { join } from 'node:path';
import type { HostEvent, PackSettings, StorageReport } from '../../../src-shared/contract/index.js';
import type { Store } from '../../store/store.js';
import type { HandlersOf } from '../handlers.js';
import { DEFAULT_FOLDER, FOLDERS } from '../packs/packSettingsService.js';
import { DataWipe } from './dataWipe.js';
import { OWN_FOLDER_NAMES, storagePlaces, storageReport, type DataLayout, type PackFolder } from './storageReport.js';

/** The folders Homebody makes in its data folder, tightened to 0700 when the data folder is its own. */
export const DATA_SUBFOLDERS: readonly string[] = [...OWN_FOLDER_NAMES, ...Object.values(DEFAULT_FOLDER), 'eval'];

/**
 * A service that runs work writing what "Delete all my data" deletes, or holds some of it in memory. The wipe asks
 * each in the order given: all stop first; after the wipe, each lets go of what it read (those that answer
 * nothing to wait for do so at once, before anything awaits).
 */
export interface WipeParticipant {
  /** Stops what could write while the data goes (`includeModels`: the downloaded models go too). */
  stopForWipe?(includeModels: boolean): Promise<void>;
  /** Right after the wipe: what was read from the deleted data goes back to a new install's. */
  afterWipe?(): Promise<void> | void;
}

export interface PrivacyStorageDeps {
  readonly dataDir: string;
  readonly store: Store;
  /** The pack settings now: a folder left empty is the default one in the data folder. */
  readonly packs: { readonly settings: { current(): PackSettings } };
  /** The secret store: its key file, and how secrets are kept, for the report (in its own words). */
  readonly secrets: { readonly keyFile: string; report(): StorageReport['secrets'] };
  /** The tool worker: the OS sandbox around it (probed once per process). */
  readonly worker: { sandbox(): Promise<StorageReport['sandbox']> };
  /** Whether a reply is being written now: the wipe waits for quiet. */
  readonly chat: { replying(): boolean };
  /** Everything that writes the data or holds it in memory, in the order they stop and are reset. */
  readonly participants: readonly WipeParticipant[];
  readonly emit: (event: HostEvent) => void;
}

const PACK_FOLDER_TEXT: Readonly<Record<(typeof FOLDERS)[number], { label: string; description: string }>> = {
  calendarDir: { label: 'Calendar folder', description: 'Calendar files (.ics) the calendar tools read and write.' },
  contactsDir: { label: 'Contacts folder', description: 'Contact cards (.vcf) the contact tools read.' },
  notesDir: { label: 'Notes folder', description: 'Markdown notes the note tools read and write.' },
  mailDir: { label: 'Mail folder', description: 'Mail drafts and copies of sent mail (.eml).' },
};

/** The Privacy page's "Stored on this computer" and "Delete all my data", over the data folder's layout. */
export function createPrivacyStorage(deps: PrivacyStorageDeps) {
  const layout = (): DataLayout => {
    const settings = deps.packs.settings.current();
    const packFolders: PackFolder[] = FOLDERS.map((key) => {
      const defaultPath = join(deps.dataDir, DEFAULT_FOLDER[key]);
      return { id: DEFAULT_FOLDER[key], ...PACK_FOLDER_TEXT[key], path: settings[key] || defaultPath, defaultPath };
    });
    return { dataDir: deps.dataDir, databaseFile: deps.store.path, packFolders, keyFile: deps.secrets.keyFile };
  };
  const places = () => storagePlaces(layout());
  const wipe = new DataWipe({
    dataDir: deps.dataDir,
    store: deps.store,
    places,
    stopActivity: async (includeModels) => {
      for (const participant of deps.participants) await participant.stopForWipe?.(includeModels);
    },
    replying: () => deps.chat.replying(),
    reset: async () => {
      for (const participant of deps.participants) {
        const done = participant.afterWipe?.();
        if (done) await done;
      }
    },
    emit: deps.emit,
  });
  const handlers: HandlersOf<'privacy.storage' | 'privacy.deleteAllData'> = {
    'privacy.storage': async () => ({
      ...(await storageReport(deps.dataDir, places(), deps.secrets.report())),
      sandbox: await deps.worker.sandbox(),
    }),
    'privacy.deleteAllData': async ({ includeModels }) => wipe.deleteAll(includeModels),
  };
  return { handlers };
}
export type PrivacyStorage = ReturnType<typeof createPrivacyStorage>;
