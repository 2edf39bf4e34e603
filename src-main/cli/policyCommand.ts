import { readFileSync, writeFileSync } from 'node:fs';
import { HomebodyError, PolicyModeSchema } from '../../src-shared/contract/index.js';
import { modeFor } from '../permissions/policy.js';
import type { Host } from '../host/hostTypes.js';
import { UsageError, dataDirFrom, intOption, parseSubcommand, pathArgument } from './args.js';
import { printJson, withCliHost } from './hostForCli.js';
import {
  DEFAULT_SERVER_WAIT_S,
  missingToolReason,
  stillStartingSentence,
  waitForServers,
  type ServerWait,
} from './serverWait.js';

export const POLICY_USAGE = `homebody policy show|grant DIR [--untrusted] [--confirm-broad]|revoke DIR|set TOOL MODE|export [--out FILE]|import FILE [--confirm-broad] [--wait SECONDS] [--data-dir DIR]
  The written boundary of what Homebody may do alone: per tool auto, ask, queue or off, and the granted folders.
  Granting the whole disk, your home folder or a system folder prints what it reaches and needs --confirm-broad.
  show, set and import first wait for the MCP servers you enabled to list their tools (mcp_<server>_<tool>), for at
  most --wait seconds (default ${DEFAULT_SERVER_WAIT_S}); a server still starting then is named.`;

/**
 * A tool the command names is not there: when an MCP server explains why (still starting, stopped, failed), the
 * sentence says so, and the command fails with it instead of "There is no tool named ...". Other errors go on.
 */
async function explainMissingTool(
  host: Host,
  error: unknown,
  tools: readonly string[],
  wait: ServerWait,
  seconds: number,
): Promise<string | null> {
  if (!(error instanceof HomebodyError) || error.code !== 'INVALID_REQUEST') return null;
  const known = new Set((await host.invoke('tools.list', {})).map((t) => t.name));
  const missing = tools.filter((t) => !known.has(t));
  if (missing.length === 0) return null;
  const { servers } = await host.invoke('mcp.list', {});
  const reasons = missing
    .map((tool) => [tool, missingToolReason(tool, wait, seconds, servers)] as const)
    .filter(([, why]) => why !== null);
  if (reasons.length === 0) return null;
  return reasons.map(([tool, why]) => `There is no tool named ${tool} yet. ${why}`).join('\n');
}

export async function policyCommand(args: string[]): Promise<number> {
  const [sub, ...rest] = args;
  const { values, positionals } = parseSubcommand(rest, {
    untrusted: { type: 'boolean', default: false },
    'confirm-broad': { type: 'boolean', default: false },
    out: { type: 'string' },
    wait: { type: 'string' },
  });
  const waitSeconds = intOption(values.wait, 'wait', 0, 600) ?? DEFAULT_SERVER_WAIT_S;
  return withCliHost(dataDirFrom(values), async (host) => {
    // The commands that name tools decide only once the MCP servers the user enabled have listed theirs.
    const wait = sub === 'show' || sub === 'set' || sub === 'import' ? await waitForServers(host, waitSeconds) : null;
    const policy = await host.invoke('policy.get', {});
    switch (sub) {
      case 'show': {
        console.log('Granted folders:');
        if (policy.folders.length === 0) console.log('  (none)');
        for (const f of policy.folders) console.log(`  ${f.path}${f.untrusted ? '  (untrusted content)' : ''}`);
        console.log('Tools:');
        // The mode in effect for each tool, and whether it is the user's choice or the default for its risk.
        for (const t of await host.invoke('tools.list', {})) {
          const mode = modeFor(policy, t.name, t.risk, t.alwaysAsk === true);
          const why = policy.tools[t.name] === undefined ? '  (default)' : '';
          console.log(`  ${t.name.padEnd(20)} ${t.risk.padEnd(12)} ${mode}${why}`);
        }
        const starting = wait && stillStartingSentence(wait, waitSeconds);
        if (starting) console.error(`homebody: ${starting} They are not listed here.`);
        return 0;
      }
      case 'grant':
      case 'revoke': {
        const [typed] = positionals;
        if (!typed) throw new UsageError(`policy ${sub} needs a folder`);
        const dir = pathArgument(typed, 'The folder');
        if (sub === 'revoke') {
          await host.invoke('policy.revokeFolder', { path: dir });
          console.log(`Revoked ${dir}`);
          return 0;
        }
        try {
          const next = await host.invoke('policy.grantFolder', {
            path: dir,
            untrusted: values.untrusted,
            confirmBroad: values['confirm-broad'],
          });
          console.log(`Granted ${next.folders.at(-1)?.path}`);
          return 0;
        } catch (error) {
          if (!(error instanceof HomebodyError) || error.code !== 'CONFIRMATION_REQUIRED') throw error;
          console.error(
            `homebody: ${error.message}\nNothing was granted. To grant it anyway: homebody policy grant ${dir} --confirm-broad`,
          );
          return 1;
        }
      }
      case 'set': {
        const [tool, mode] = positionals;
        const parsedMode = PolicyModeSchema.safeParse(mode);
        if (!tool || !parsedMode.success)
          throw new UsageError('policy set needs a tool and a mode: auto, ask, queue or off');
        try {
          await host.invoke('policy.setMode', { tool, mode: parsedMode.data });
        } catch (error) {
          const why = wait && (await explainMissingTool(host, error, [tool], wait, waitSeconds));
          if (!why) throw error;
          console.error(`homebody: ${why}\nNothing was changed.`);
          return 1;
        }
        console.log(`${tool}: ${parsedMode.data}`);
        return 0;
      }
      case 'export': {
        const json = `${JSON.stringify(policy, null, 2)}\n`;
        if (values.out) writeFileSync(pathArgument(values.out, '--out'), json);
        else process.stdout.write(json);
        return 0;
      }
      case 'import': {
        const [typed] = positionals;
        if (!typed) throw new UsageError('policy import needs a JSON file');
        const file = pathArgument(typed, 'The policy file');
        let raw: unknown;
        try {
          raw = JSON.parse(readFileSync(file, 'utf8'));
        } catch (error) {
          throw new HomebodyError('INVALID_REQUEST', `Cannot read the policy ${file}: ${(error as Error).message}`);
        }
        try {
          printJson(await host.invoke('policy.set', { policy: raw, confirmBroad: values['confirm-broad'] }));
        } catch (error) {
          const named = (raw as { tools?: unknown } | null)?.tools;
          const tools = named && typeof named === 'object' ? Object.keys(named) : [];
          const why = wait && (await explainMissingTool(host, error, tools, wait, waitSeconds));
          if (why) {
            console.error(`homebody: ${why}\nNothing was imported.`);
            return 1;
          }
          if (!(error instanceof HomebodyError) || error.code !== 'CONFIRMATION_REQUIRED') throw error;
          console.error(
            `homebody: ${error.message}\nNothing was imported. To import it anyway: homebody policy import ${file} --confirm-broad`,
          );
          return 1;
        }
        return 0;
      }
      default:
        throw new UsageError(`policy takes show, grant, revoke, set, export or import, not "${sub ?? ''}"`);
    }
  });
}
