import type { McpServerConfig } from '../../../src-shared/contract/index.js';
import type { SecretStore } from '../../privacy/secretStore.js';
import type { McpRepo } from '../../store/repos/mcpRepo.js';
import type { McpStore, StoredMcpServer } from '../../tools/mcp/mcpManager.js';

/**
 * Set on a stored configuration whose environment and header values are sealed. A configuration without it was
 * stored before sealing: its values are clear text, read as they are until they are sealed at start. A mark on
 * the whole configuration, rather than a prefix on each value, so that no clear value is ever mistaken for a
 * sealed one.
 */
const SEALED_MARK = 'secrets';
const SEALED = 'sealed';

type ValueField = 'env' | 'headers';
const FIELD_LABEL: Readonly<Record<ValueField, string>> = { env: 'environment variable', headers: 'header' };

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const isSealed = (config: unknown): boolean => isObject(config) && config[SEALED_MARK] === SEALED;

/** The configuration with each env and header value mapped (null leaves it out); names, and all else, as they are. */
function mapSecretValues(
  config: unknown,
  map: (value: string, field: ValueField, key: string) => string | null,
): unknown {
  if (!isObject(config) || !isObject(config.transport)) return config;
  const transport: Record<string, unknown> = { ...config.transport };
  for (const field of ['env', 'headers'] as const) {
    const values = transport[field];
    if (!isObject(values)) continue;
    const mapped: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(values)) {
      const next = typeof value === 'string' ? map(value, field, key) : value;
      if (next !== null) mapped[key] = next;
    }
    transport[field] = mapped;
  }
  return { ...config, transport };
}

/**
 * The MCP servers' store with their secrets sealed: the values of environment variables and HTTP headers (tokens,
 * API keys) are sealed by the secret store before they reach the database, and opened as the manager reads them.
 * Their names stay in clear, so the views can show which are set. A value that cannot be opened is left out (it
 * reads as not set) and the user is told which.
 */
export function sealedMcpStore(repo: McpRepo, secrets: SecretStore): McpStore & { sealStored(): boolean } {
  const label = (server: string, field: ValueField, key: string) =>
    `The ${FIELD_LABEL[field]} ${key} of the MCP server "${server}"`;
  const seal = (config: unknown) => ({
    ...(mapSecretValues(config, (v) => secrets.seal(v)) as object),
    [SEALED_MARK]: SEALED,
  });
  const open = (server: string, config: unknown): unknown => {
    if (!isSealed(config)) return config;
    const { [SEALED_MARK]: _mark, ...rest } = config as Record<string, unknown>;
    return mapSecretValues(rest, (value, field, key) => secrets.open(value, label(server, field, key)));
  };

  return {
    list: (): StoredMcpServer[] =>
      repo.list().map((record) => ({ ...record, config: open(record.name, record.config) })),
    add: (configs: readonly McpServerConfig[], now: number) =>
      repo.add(
        configs.map((config) => ({ name: config.name, ...seal(config) })),
        now,
      ),
    remove: (name) => repo.remove(name),
    setEnabled: (name, enabled) => repo.setEnabled(name, enabled),
    setTrustAnnotations: (name, trust) => repo.setTrustAnnotations(name, trust),
    confirmCommand: (name, fingerprint) => repo.confirmCommand(name, fingerprint),
    trust: (name, tools, now) => repo.trust(name, tools, now),
    trustedTools: (name) => repo.trustedTools(name),
    overrides: (name) => repo.overrides(name),
    setOverride: (name, tool, risk) => repo.setOverride(name, tool, risk),

    /**
     * At start: configurations an older version stored in clear are sealed, and values sealed otherwise than the
     * secret store seals now are sealed again. Answers whether anything was written.
     */
    sealStored(): boolean {
      let wrote = false;
      for (const record of repo.list()) {
        if (!isSealed(record.config)) {
          repo.setConfig(record.name, seal(record.config));
          wrote = true;
          continue;
        }
        let changed = false;
        const resealed = mapSecretValues(record.config, (value, field, key) => {
          if (secrets.isCurrent(value)) return value;
          const plain = secrets.open(value, label(record.name, field, key));
          // One that cannot be opened is kept as it is: it may open again if its key comes back.
          if (plain === null) return value;
          changed = true;
          return secrets.seal(plain);
        });
        if (changed) {
          repo.setConfig(record.name, resealed);
          wrote = true;
        }
      }
      return wrote;
    },
  };
}
