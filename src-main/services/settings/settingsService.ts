import type { AppError, AppInfo } from '../../../src-shared/contract/index.js';
import type { Store } from '../../store/store.js';
import type { ToolRegistry } from '../../tools/registry.js';
import type { Caller, HandlersOf } from '../handlers.js';
import { createPolicyService } from './policyService.js';
import { userPath } from '../../util/userPath.js';

type SettingsMethod =
  | 'app.info'
  | 'audit.list'
  | 'policy.get'
  | 'policy.set'
  | 'policy.setMode'
  | 'policy.grantFolder'
  | 'policy.revokeFolder';

export interface SettingsServiceDeps {
  readonly store: Store;
  readonly registry: ToolRegistry;
  /** Homebody's data folder, which can never be granted. */
  readonly dataDir: string;
  /** Who changes the policy through this Host, as the audit log records it. */
  readonly caller: Caller;
  /**
   * What app.info tells of this Host: its version, its shell (the CLI's Host says browser: the app's two shells are
   * all the page knows), and the notices, read at each call since later start-up steps add to them.
   */
  readonly app: {
    readonly version: string;
    readonly shell: AppInfo['shell'] | 'cli';
    readonly notices: readonly AppError[];
  };
}

/**
 * The app's own facts (app.info), the audit log, and the user's policy: the written boundary of what Homebody may do
 * alone, changed only through the policy service and audited with who changed it.
 */
export function createSettingsService(deps: SettingsServiceDeps) {
  const { store, caller } = deps;
  const policies = createPolicyService({ store, registry: deps.registry, dataDir: deps.dataDir });
  const handlers: HandlersOf<SettingsMethod> = {
    'app.info': async () => ({
      name: 'Homebody',
      version: deps.app.version,
      shell: deps.app.shell === 'electron' ? 'electron' : 'browser',
      dataDir: deps.dataDir,
      notices: [...deps.app.notices],
    }),
    'audit.list': async ({ beforeId, limit, ...filter }) => ({
      events: store.audit.page(beforeId ?? Number.MAX_SAFE_INTEGER, limit ?? 200, filter),
    }),
    'policy.get': async () => policies.current(),
    'policy.set': async ({ policy: raw, confirmBroad }) => policies.replace(raw, caller, confirmBroad === true),
    'policy.setMode': async ({ tool, mode }) => policies.setMode(tool, mode, caller),
    'policy.grantFolder': async ({ confirmBroad, ...folder }) =>
      policies.grant({ ...folder, path: userPath(folder.path, 'The folder') }, caller, confirmBroad === true),
    'policy.revokeFolder': async ({ path }) => policies.revoke(userPath(path, 'The folder'), caller),
  };
  return {
    policies,
    handlers,
    /** After "Delete all my data": the policy read at start goes back to a new install's. */
    afterWipe: () => policies.reset(),
  };
}
export type SettingsService = ReturnType<typeof createSettingsService>;
