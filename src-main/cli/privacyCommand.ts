import { EGRESS_FEATURES, EgressFeatureSchema, type EgressEvent } from '../../src-shared/contract/index.js';
import { UsageError, dataDirFrom, intOption, parseSubcommand } from './args.js';
import { printJson, withCliHost } from './hostForCli.js';

export const PRIVACY_USAGE = `homebody privacy ledger [--json] [--allowed] [--limit N]|network|allow FEATURE HOST|offline on|off
  What Homebody connected to (the egress ledger, newest first), offline mode and the rules that let a feature
  (${EGRESS_FEATURES.join(', ')}) reach a host, * for any host. Offline mode is on until you turn it off.`;

/** One ledger line for people: when, allowed or blocked, what for, where, and why. */
export function ledgerLine(event: EgressEvent): string {
  const when = new Date(event.at).toISOString().replace('T', ' ').slice(0, 19);
  const bytes = event.bytes ? `  ${event.bytes.toLocaleString('en-US')} bytes` : '';
  return `${when}  ${event.allowed ? 'allowed' : 'BLOCKED'}  ${event.feature ?? '-'}  ${event.source}  ${event.url}  (${event.reason ?? ''})${bytes}`;
}

export async function privacyCommand(args: string[]): Promise<number> {
  const [sub, ...rest] = args;
  const { values, positionals } = parseSubcommand(rest, {
    json: { type: 'boolean', default: false },
    allowed: { type: 'boolean', default: false },
    limit: { type: 'string' },
  });
  const limit = intOption(values.limit, 'limit', 1, 1000);
  return withCliHost(dataDirFrom(values), async (host) => {
    switch (sub) {
      case 'ledger': {
        const page = await host.invoke('privacy.ledger', {
          ...(limit === undefined ? {} : { limit }),
          ...(values.allowed ? { allowedOnly: true } : {}),
        });
        if (values.json) {
          printJson(page);
          return 0;
        }
        console.log(
          `${page.total} connection${page.total === 1 ? '' : 's'} recorded, ${page.allowedCount} allowed${values.allowed ? ' (only allowed ones listed)' : ''}.`,
        );
        for (const event of page.events) console.log(ledgerLine(event));
        return 0;
      }
      case 'network': {
        const view = await host.invoke('privacy.network', {});
        if (values.json) {
          printJson(view);
          return 0;
        }
        console.log(`Offline mode: ${view.offline ? 'on' : 'off'}`);
        console.log('Rules:');
        if (view.rules.length === 0) console.log('  (none)');
        for (const rule of view.rules) console.log(`  ${rule.feature.padEnd(15)} ${rule.host}`);
        return 0;
      }
      case 'allow': {
        const [feature, ruleHost] = positionals;
        const parsed = EgressFeatureSchema.safeParse(feature);
        if (!parsed.success || !ruleHost) {
          throw new UsageError(`privacy allow needs a feature (${EGRESS_FEATURES.join(', ')}) and a host, or *`);
        }
        const view = await host.invoke('privacy.allow', { feature: parsed.data, host: ruleHost });
        console.log(
          `Allowed ${parsed.data} to reach ${ruleHost.trim().toLowerCase()}. Offline mode is ${view.offline ? 'still on' : 'off'}.`,
        );
        return 0;
      }
      case 'offline': {
        const [state] = positionals;
        if (state !== 'on' && state !== 'off') throw new UsageError('privacy offline takes on or off');
        const view = await host.invoke('privacy.setNetwork', { offline: state === 'on' });
        console.log(`Offline mode: ${view.offline ? 'on' : 'off'}`);
        return 0;
      }
      default:
        throw new UsageError(`privacy takes ledger, network, allow or offline, not "${sub ?? ''}"`);
    }
  });
}
