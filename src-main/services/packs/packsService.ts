import type { SecretStore } from '../../privacy/secretStore.js';
import type { Store } from '../../store/store.js';
import type { Emit, HandlersOf, Subscribe } from '../handlers.js';
import type { EgressFeature } from '../../../src-shared/contract/index.js';
import { noDevice, type DeviceBridge } from './deviceBridge.js';
import { MailCertificates } from './mailCertificates.js';
import { PackSettingsService } from './packSettingsService.js';
import { ReminderScheduler } from './reminderScheduler.js';

export interface PacksServiceDeps {
  readonly store: Store;
  /** Seals the mail passwords before they reach the database. */
  readonly secrets: SecretStore;
  readonly dataDir: string;
  /** The egress guard, whose offline mode each tool call is handed. */
  readonly network: {
    readonly guard: {
      readonly offline: boolean;
      /** Asked before Settings connects to a mail server to show its certificate. */
      check(url: string, feature: EgressFeature, source: string): unknown;
    };
  };
  /** How the device tools reach the clipboard, the default apps and notifications; none by default. */
  readonly device?: DeviceBridge;
  readonly emit: Emit;
  readonly subscribe: Subscribe;
}

/**
 * The tool packs: their settings (folders, mail and its servers' trusted certificates, the search endpoint, the time zone), the shell's device bridge the
 * device tools and reminders go through (and the page's answers to it, device.answer), and the reminders scheduler.
 */
export function createPacksService(deps: PacksServiceDeps) {
  const settings = new PackSettingsService({
    settings: deps.store.settings,
    secrets: deps.secrets,
    dataDir: deps.dataDir,
    offline: () => deps.network.guard.offline,
  });
  const certificates = new MailCertificates({
    settings,
    egress: (url, feature, source) => deps.network.guard.check(url, feature, source),
  });
  const device = deps.device ?? noDevice;
  device.connect?.(deps.emit);
  const reminders = new ReminderScheduler({ file: () => settings.config().remindersFile, device, emit: deps.emit });
  // A reminder tool call (or its undo) may have changed the file: read it again.
  deps.subscribe((event) => {
    if (event.type === 'toolcall.updated' && event.call.tool.startsWith('reminder_')) void reminders.check();
  });
  const handlers: HandlersOf<
    'packs.settings' | 'packs.setSettings' | 'packs.checkCertificate' | 'packs.trustCertificate' | 'device.answer'
  > = {
    'packs.settings': async () => settings.view(),
    'packs.setSettings': async (patch) => settings.set(patch),
    'packs.checkCertificate': async ({ account }) => certificates.check(account),
    'packs.trustCertificate': async ({ account, sha256 }) => certificates.trust(account, sha256),
    'device.answer': async (answer) => ({ accepted: device.answer?.(answer) ?? false }),
  };
  return {
    settings,
    device,
    reminders,
    handlers,
    /** At start: passwords an older version kept in clear are sealed; answers whether anything was written. */
    sealStoredSecrets: (): boolean => settings.sealStoredSecrets(),
    /** Reminders that fell due while Homebody was closed are shown now, once. */
    startUp: (): void => void reminders.check(),
    /** After "Delete all my data": the reminders file is gone, and so are its reminders. */
    afterWipe: (): void => void reminders.check(),
    dispose: (): void => reminders.dispose(),
  };
}
export type PacksService = ReturnType<typeof createPacksService>;
