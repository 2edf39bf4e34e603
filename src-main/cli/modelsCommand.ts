import type { Download, HostEvent, LocalModel, ModelsListing } from '../../src-shared/contract/index.js';
import { dataDirFrom, intOption, parseSubcommand, UsageError } from './args.js';
import { printJson, withCliHost } from './hostForCli.js';

export const MODELS_USAGE = `homebody models [list] [--json] [--data-dir DIR]
  The catalog (with what is downloaded or under way) and the models on disk.
homebody models download CATALOG-ID|URI [--sha256 HEX] [--size BYTES] [--json]
  Downloads a catalog model (or an hf:owner/repo/file.gguf URI or https URL) into <data dir>/models, showing
  progress, and checks its size and sha256 before it can be used. Ctrl+C pauses; the same command resumes.
homebody models add PATH | remove ID | verify ID
  Adds a GGUF file from disk (left where it is); removes a model (deletes a downloaded file, only forgets an added
  one); computes a model's sha256 and compares it with the catalog's.`;

const MB = 1e6;
const size = (n: number | null) => (n === null ? '?' : `${(n / MB).toFixed(1)} MB`);

function modelLine(m: LocalModel): string {
  const flags = [m.source, m.integrity, m.active ? 'active' : '', m.missing ? 'MISSING' : ''].filter(Boolean);
  return `  ${m.id}  ${m.name} (${size(m.sizeBytes)}; ${flags.join(', ')})\n      ${m.path}`;
}

function downloadLine(d: Pick<Download, 'state' | 'bytes' | 'totalBytes' | 'bytesPerSecond' | 'etaSeconds'>): string {
  const share = d.totalBytes ? ` (${Math.floor((d.bytes / d.totalBytes) * 100)}%)` : '';
  const speed = d.bytesPerSecond > 0 ? `, ${size(d.bytesPerSecond)}/s` : '';
  const eta = d.etaSeconds !== null ? `, ${Math.ceil(d.etaSeconds)} s left` : '';
  return `${d.state} ${size(d.bytes)} of ${size(d.totalBytes)}${share}${speed}${eta}`;
}

export function formatListing(listing: ModelsListing): string {
  const lines = ['Catalog'];
  for (const entry of listing.catalog) {
    const here = entry.modelId
      ? 'on disk'
      : entry.download
        ? `download ${entry.download.id}: ${downloadLine(entry.download)}`
        : 'not downloaded';
    lines.push(`  ${entry.id.padEnd(20)} ${entry.name} — ${size(entry.sizeBytes)}, ${entry.licence} — ${here}`);
    if (entry.download?.error) lines.push(`      ${entry.download.error.message}`);
  }
  const others = listing.downloads.filter((d) => d.catalogId === null);
  if (others.length) {
    lines.push('Other downloads');
    for (const d of others)
      lines.push(`  ${d.id}  ${d.uri}: ${downloadLine(d)}${d.error ? `\n      ${d.error.message}` : ''}`);
  }
  lines.push(`Models on disk (${listing.modelsDir})`);
  lines.push(...(listing.models.length ? listing.models.map(modelLine) : ['  none']));
  return lines.join('\n');
}

const FINAL = new Set(['done', 'failed', 'paused', 'cancelled']);

export async function modelsCommand(args: string[]): Promise<number> {
  const { values, positionals } = parseSubcommand(args, {
    json: { type: 'boolean', default: false },
    sha256: { type: 'string' },
    size: { type: 'string' },
  });
  const [action = 'list', target, ...rest] = positionals;
  if (rest.length) throw new UsageError(`unexpected arguments: ${rest.join(' ')}`);
  const needsTarget = (what: string): string => {
    if (!target) throw new UsageError(`models ${action} needs ${what}`);
    return target;
  };
  return withCliHost(dataDirFrom(values), async (host) => {
    switch (action) {
      case 'list': {
        const listing = await host.invoke('models.list', {});
        if (values.json) printJson(listing);
        else console.log(formatListing(listing));
        return 0;
      }
      case 'add': {
        const model = await host.invoke('models.add', { path: needsTarget('a PATH') });
        if (values.json) printJson(model);
        else console.log(`Added ${model.name}:\n${modelLine(model)}`);
        return 0;
      }
      case 'remove': {
        const result = await host.invoke('models.remove', { id: needsTarget('a model ID') });
        if (values.json) printJson(result);
        else console.log(result.message);
        return 0;
      }
      case 'verify': {
        const model = await host.invoke('models.verify', { id: needsTarget('a model ID') });
        if (values.json) printJson(model);
        else console.log(`${model.name}: sha256 ${model.sha256} (${model.integrity})`);
        return 0;
      }
      case 'download':
        return download(host, needsTarget('a CATALOG-ID or URI'), values);
      default:
        throw new UsageError(`unknown action "${action}" (list, download, add, remove, verify)`);
    }
  });
}

async function download(
  host: Parameters<Parameters<typeof withCliHost>[1]>[0],
  target: string,
  values: { json?: boolean; sha256?: string; size?: string },
): Promise<number> {
  const sizeBytes = intOption(values.size, 'size', 1, Number.MAX_SAFE_INTEGER);
  const isUri = target.startsWith('hf:') || /^https?:\/\//.test(target);
  if (!isUri && (values.sha256 || sizeBytes !== undefined)) {
    throw new UsageError('--sha256 and --size go with a URI; a catalog model carries its own');
  }
  let lastLine = 0;
  let id: string | undefined;
  let settle: (d: Download) => void = () => undefined;
  const ended = new Promise<Download>((resolve) => (settle = resolve));
  const seen: HostEvent[] = [];
  const onEvent = (event: HostEvent) => {
    if (event.type !== 'download.progress') return;
    if (id === undefined) {
      seen.push(event);
      return;
    }
    if (event.id !== id) return;
    const now = Date.now();
    if (event.state === 'downloading' && now - lastLine >= 1000) {
      lastLine = now;
      process.stderr.write(`homebody: ${downloadLine(event)}\n`);
    } else if (event.state === 'verifying') {
      process.stderr.write('homebody: checking size and sha256…\n');
    }
    if (FINAL.has(event.state)) {
      void host.invoke('models.getDownload', { id }).then(settle, () => undefined);
    }
  };
  const off = host.subscribe(onEvent);
  const pause = () => {
    if (id) void host.invoke('models.pause', { id }).catch(() => undefined);
  };
  process.once('SIGINT', pause);
  try {
    const started = await host.invoke(
      'models.download',
      isUri
        ? { uri: target, ...(values.sha256 ? { sha256: values.sha256 } : {}), ...(sizeBytes ? { sizeBytes } : {}) }
        : { catalogId: target },
    );
    id = started.id;
    for (const event of seen.splice(0)) onEvent(event);
    const now = await host.invoke('models.getDownload', { id });
    if (FINAL.has(now.state)) settle(now);
    const result = await ended;
    if (values.json) printJson(result);
    switch (result.state) {
      case 'done':
        if (!values.json) console.log(`Downloaded and checked: ${result.path}`);
        return 0;
      case 'paused':
        console.error(
          `homebody: paused at ${size(result.bytes)} of ${size(result.totalBytes)}${result.error ? `: ${result.error.message}` : ''}. Run the same command to resume.`,
        );
        return 1;
      default:
        console.error(`homebody: download ${result.state}${result.error ? `: ${result.error.message}` : ''}`);
        return 1;
    }
  } finally {
    off();
    process.off('SIGINT', pause);
  }
}
