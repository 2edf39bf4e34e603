import { join } from 'node:path';
import type { HostEvent, PackSettings, StorageReport } from '../../src-shared/contract/index.js';
import type { Store } from '../store/store.js';
import { DataWipe, type DeleteAllResult } from './dataWipe.js';
import { DEFAULT_FOLDER, FOLDERS } from './packSettingsService.js';
import { storagePlaces, storageReport, type DataLayout, type PackFolder } from './storageReport.js';

export interface PrivacyStorageDeps {
  readonly dataDir: string;
  readonly store: Store;
  /** The pack settings now: a folder left empty is the default one in the data folder. */
  readonly packSettings: () => PackSettings;
  /** The secret store's key file. */
  readonly keyFile: string;
  /** How secrets are kept, for the report (the secret store's own words). */
  readonly secrets: () => StorageReport['secrets'];
  /** The OS sandbox around the tool worker (probed once per process). */
  readonly sandbox: () => Promise<StorageReport['sandbox']>;
  readonly stopActivity: (includeModels: boolean) => Promise<void>;
  readonly replying: () => boolean;
  readonly reset: () => void;
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
    const settings = deps.packSettings();
    const packFolders: PackFolder[] = FOLDERS.map((key) => {
      const defaultPath = join(deps.dataDir, DEFAULT_FOLDER[key]);
      return { id: DEFAULT_FOLDER[key], ...PACK_FOLDER_TEXT[key], path: settings[key] || defaultPath, defaultPath };
    });
    return { dataDir: deps.dataDir, databaseFile: deps.store.path, packFolders, keyFile: deps.keyFile };
  };
  const places = () => storagePlaces(layout());
  const wipe = new DataWipe({
    dataDir: deps.dataDir,
    store: deps.store,
    places,
    stopActivity: deps.stopActivity,
    replying: deps.replying,
    reset: deps.reset,
    emit: deps.emit,
  });
  return {
    report: async (): Promise<StorageReport> => ({
      ...(await storageReport(deps.dataDir, places(), deps.secrets())),
      sandbox: await deps.sandbox(),
    }),
    deleteAll: (includeModels: boolean): Promise<DeleteAllResult> => wipe.deleteAll(includeModels),
  };
}
export type PrivacyStorage = ReturnType<typeof createPrivacyStorage>;
