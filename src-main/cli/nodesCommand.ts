import { readFileSync } from 'node:fs';
import type { NodeProbe, RemoteNode } from '../../src-shared/contract/index.js';
import { UsageError, dataDirFrom, parseSubcommand, pathArgument } from './args.js';
import { printJson, withCliHost } from './hostForCli.js';

export const NODES_USAGE = `homebody nodes list|check URL|add URL|remove ID|allow-offline ID on|off [--json]
  Models on other computers (llama-server, vLLM, Ollama): check asks a server what it serves without saving
  anything; add saves it, pinning the TLS certificate it shows now (https; --fingerprint FP to require the one you
  compared) and the model it serves (--model NAME to require another it lists). --api-key-file FILE reads an API key
  (kept sealed, never printed); --allow-offline lets offline mode reach that host (for check, only while it asks;
  add keeps the rule); --label NAME names it.
  Use one with "homebody run --node ID --allow-remote".`;

function probeLines(probe: NodeProbe): string[] {
  return [
    `${probe.url} serves ${probe.model} (context ${probe.contextSize.toLocaleString('en-US')} tokens; ${probe.protocol === 'dialect' ? "llama-server, in the model's own format" : 'OpenAI-compatible API'}).`,
    probe.fingerprint
      ? `TLS certificate SHA-256: ${probe.fingerprint}`
      : 'Plain http: anyone on the network between the two computers can read the conversation.',
    ...(probe.models.length > 1 ? [`It also lists: ${probe.models.filter((m) => m !== probe.model).join(', ')}`] : []),
  ];
}

const nodeLine = (n: RemoteNode): string =>
  `${n.id}  ${n.label}  ${n.url}  ${n.model}${n.active ? '  (in use)' : ''}${n.allowOffline ? '  (allowed while offline)' : ''}`;

export async function nodesCommand(args: string[]): Promise<number> {
  const [sub, ...rest] = args;
  const { values, positionals } = parseSubcommand(rest, {
    json: { type: 'boolean', default: false },
    'api-key-file': { type: 'string' },
    fingerprint: { type: 'string' },
    model: { type: 'string' },
    label: { type: 'string' },
    'allow-offline': { type: 'boolean', default: false },
  });
  const keyFile = values['api-key-file'];
  // A key on the command line would sit in the shell's history and in `ps`: it is read from a file.
  const apiKey = keyFile ? readFileSync(pathArgument(keyFile, '--api-key-file'), 'utf8').trim() : undefined;
  const key = apiKey ? { apiKey } : {};
  const [first, second] = positionals;
  return withCliHost(dataDirFrom(values), async (host) => {
    switch (sub) {
      case 'list': {
        const { nodes } = await host.invoke('nodes.list', {});
        if (values.json) printJson({ nodes });
        else if (nodes.length === 0)
          console.log('No models on other computers yet: add one with "homebody nodes add URL".');
        else for (const n of nodes) console.log(nodeLine(n));
        return 0;
      }
      case 'check': {
        if (!first) throw new UsageError("nodes check needs the server's URL, e.g. http://192.168.1.20:8080");
        const probe = await host.invoke('nodes.probe', {
          url: first,
          ...key,
          ...(values['allow-offline'] ? { allowOffline: true } : {}),
        });
        if (values.json) printJson(probe);
        else for (const line of probeLines(probe)) console.log(line);
        return 0;
      }
      case 'add': {
        if (!first) throw new UsageError("nodes add needs the server's URL, e.g. http://192.168.1.20:8080");
        const allowOffline = values['allow-offline'];
        // Without --fingerprint, the certificate shown now is the one pinned (and printed, to compare).
        const probe = await host.invoke('nodes.probe', {
          url: first,
          ...key,
          ...(allowOffline ? { allowOffline } : {}),
        });
        const fingerprint = values.fingerprint ?? probe.fingerprint ?? undefined;
        const node = await host.invoke('nodes.add', {
          url: probe.url,
          ...key,
          ...(fingerprint ? { fingerprint } : {}),
          ...(values.model ? { model: values.model } : { model: probe.model }),
          ...(values.label ? { label: values.label } : {}),
          ...(allowOffline ? { allowOffline } : {}),
        });
        if (values.json) printJson(node);
        else {
          for (const line of probeLines(probe)) console.log(line);
          console.log(
            `Added ${node.label} as ${node.id}. Use it with: homebody run --node ${node.id} --allow-remote "…"`,
          );
        }
        return 0;
      }
      case 'remove': {
        if (!first) throw new UsageError('nodes remove needs the id "homebody nodes list" shows');
        const removed = await host.invoke('nodes.remove', { id: first });
        if (values.json) printJson(removed);
        else console.log(removed.message);
        return 0;
      }
      case 'allow-offline': {
        if (!first || (second !== 'on' && second !== 'off'))
          throw new UsageError('nodes allow-offline needs ID on|off');
        const node = await host.invoke('nodes.setAllowOffline', { id: first, allow: second === 'on' });
        if (values.json) printJson(node);
        else console.log(nodeLine(node));
        return 0;
      }
      default:
        throw new UsageError(`nodes needs list, check, add, remove or allow-offline, not "${sub ?? ''}"`);
    }
  });
}
