import type { EngineTool } from '../llm/engineTypes.js';

/** Above this many tools the model is offered a ranked selection instead of all of them. */
export const SELECT_ABOVE = 12;
/** How many of the best-ranked tools are offered (tools already used in the task come on top). */
export const SELECT_TOP = 8;

export interface ToolSelection {
  /** The tools to offer, in the order they were given (a stable order keeps the evaluated prompt prefix reusable). */
  readonly tools: EngineTool[];
  /** true when some tools were left out. */
  readonly narrowed: boolean;
}

export interface SelectionRequest {
  /** The new message. */
  readonly prompt: string;
  /** Earlier user messages of the task, oldest first; the latest ones help a short follow-up ("yes, do it"). */
  readonly earlierPrompts?: readonly string[];
  /** Tools the task has called already: always kept. */
  readonly usedTools?: Iterable<string>;
  /**
   * The tools offered for the task's previous reply, when a choice was made then: offered again when they hold the
   * new request's best few, so the prompt's tool section (and what the engine evaluated after it) stays the same.
   */
  readonly previouslyOffered?: readonly string[];
  readonly top?: number;
  readonly selectAbove?: number;
}

/**
 * The tools worth offering for a request, ranked locally (no model call) by BM25 over each tool's name,
 * description and parameters, with light stemming and a few synonyms for common intents. With few tools,
 * or when nothing in the request matches any tool (and the task made no choice before), every tool is offered.
 */
export function selectTools(tools: readonly EngineTool[], request: SelectionRequest): ToolSelection {
  const selectAbove = request.selectAbove ?? SELECT_ABOVE;
  if (tools.length <= selectAbove) return { tools: [...tools], narrowed: false };
  const used = new Set(request.usedTools ?? []);
  const scores = rankTools(tools, request);
  const ranked = tools
    .map((tool, i) => ({ tool, score: scores[i] ?? 0, i }))
    .filter((r) => r.score > 0)
    .sort((a, b) => b.score - a.score || a.i - b.i);
  const previous = new Set((request.previouslyOffered ?? []).filter((name) => tools.some((t) => t.name === name)));
  // Nothing matches: the task's previous choice stands if it made one, else every tool is offered.
  if (ranked.length === 0 && previous.size === 0) return { tools: [...tools], narrowed: false };
  const best = ranked.slice(0, STICKY_BEST).map((r) => r.tool.name);
  const keep =
    previous.size > 0 && best.every((name) => previous.has(name))
      ? previous
      : new Set(ranked.slice(0, request.top ?? SELECT_TOP).map((r) => r.tool.name));
  for (const name of used) keep.add(name);
  const chosen = tools.filter((t) => keep.has(t.name));
  return { tools: chosen, narrowed: chosen.length < tools.length };
}

/** The previous reply's tools are offered again when they include the new request's best this many. */
const STICKY_BEST = 2;
/** Query weights: the new message counts fully, the user's previous two messages less. */
const EARLIER_WEIGHTS = [0.5, 0.25];
/** Name words count more than description words; parameter words less. */
const FIELD_WEIGHTS = { name: 3, description: 1, parameter: 0.5 } as const;
const SYNONYM_WEIGHT = 0.6;
const K1 = 1.2;
const B = 0.75;

/** BM25 score of every tool against the request, in the tools' order. */
export function rankTools(tools: readonly EngineTool[], request: SelectionRequest): number[] {
  const docs = tools.map(toolTerms);
  const lengths = docs.map((d) => [...d.values()].reduce((a, b) => a + b, 0));
  const avgLength = lengths.reduce((a, b) => a + b, 0) / Math.max(1, docs.length);
  const docFreq = new Map<string, number>();
  for (const doc of docs) for (const term of doc.keys()) docFreq.set(term, (docFreq.get(term) ?? 0) + 1);

  const query = new Map<string, number>();
  const addQuery = (text: string, weight: number) => {
    for (const term of terms(text)) {
      query.set(term, Math.max(query.get(term) ?? 0, weight));
      for (const synonym of SYNONYMS.get(term) ?? [])
        query.set(synonym, Math.max(query.get(synonym) ?? 0, weight * SYNONYM_WEIGHT));
    }
  };
  addQuery(request.prompt, 1);
  const earlier = request.earlierPrompts ?? [];
  EARLIER_WEIGHTS.forEach((weight, back) => {
    const text = earlier[earlier.length - 1 - back];
    if (text !== undefined) addQuery(text, weight);
  });

  return docs.map((doc, i) => {
    let score = 0;
    for (const [term, weight] of query) {
      const tf = doc.get(term);
      if (!tf) continue;
      const df = docFreq.get(term) ?? 0;
      const idf = Math.log(1 + (docs.length - df + 0.5) / (df + 0.5));
      score += weight * idf * ((tf * (K1 + 1)) / (tf + K1 * (1 - B + (B * (lengths[i] ?? 0)) / avgLength)));
    }
    return score;
  });
}

/** A tool's weighted term frequencies. */
function toolTerms(tool: EngineTool): Map<string, number> {
  const out = new Map<string, number>();
  const add = (text: string, weight: number) => {
    for (const term of terms(text)) out.set(term, (out.get(term) ?? 0) + weight);
  };
  add(tool.name, FIELD_WEIGHTS.name);
  add(tool.description, FIELD_WEIGHTS.description);
  const properties = tool.parameters.properties;
  if (typeof properties === 'object' && properties !== null) {
    for (const [name, schema] of Object.entries(properties as Record<string, unknown>)) {
      add(name, FIELD_WEIGHTS.parameter);
      const description = (schema as { description?: unknown } | null)?.description;
      if (typeof description === 'string') add(description, FIELD_WEIGHTS.parameter);
    }
  }
  return out;
}

/** Words of a text, split on non-letters and camelCase, lower-cased, stemmed, without stop words. */
export function terms(text: string): string[] {
  return text
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((w) => w.length > 1 && !STOP_WORDS.has(w))
    .map(stem);
}

/** A light suffix stripper: enough to meet "files"/"file", "deleting"/"delete", "searches"/"search". */
export function stem(word: string): string {
  if (word.length <= 3) return word;
  if (word.endsWith('ies') && word.length > 4) return `${word.slice(0, -3)}y`;
  if (/(ss|us|is)$/.test(word)) return word;
  for (const suffix of ['ing', 'ed', 'es', 's', 'e']) {
    if (word.endsWith(suffix) && word.length - suffix.length >= 3) {
      const base = word.slice(0, -suffix.length);
      // "running" → "run", "stopped" → "stop"
      return /([b-df-hj-kmnp-rtv-y])\1$/.test(base) && suffix !== 'e' && suffix !== 's' ? base.slice(0, -1) : base;
    }
  }
  return word;
}

const STOP_WORDS = new Set(
  (
    'a an the and or but if of to in on at by for with from into onto about as is are was were be been being ' +
    'this that these those it its i me my we our you your he she they them their what which who whom how when ' +
    'where why can could would should will shall may might must do does did done have has had please want need ' +
    'some any all each every there here then than so not no yes also just like get let tool belongs provides ' +
    'function'
  ).split(' '),
);

/** Words people use for the same intent; each group's words stand for one another (after stemming). */
const SYNONYM_GROUPS: readonly string[] = [
  'delete remove trash erase discard rm drop clear',
  'find search look lookup locate query seek grep',
  'send mail email message post text',
  'schedule calendar meeting event appointment book reserve',
  'list show display view ls',
  'read open cat content',
  'write save create make new add touch mkdir',
  'move rename mv relocate',
  'copy duplicate cp',
  'folder directory dir',
  'file document doc',
  'reminder remind todo task',
  'note notes memo',
  'contact person people user',
  'buy purchase order trade',
  'price cost quote',
  'cancel abort stop',
  'weather forecast temperature',
  'calculate compute sum total',
  'flight plane airline',
  'car vehicle',
];

const SYNONYMS: ReadonlyMap<string, readonly string[]> = (() => {
  const map = new Map<string, Set<string>>();
  for (const group of SYNONYM_GROUPS) {
    const words = [...new Set(group.split(' ').map(stem))];
    for (const word of words) {
      const set = map.get(word) ?? new Set<string>();
      for (const other of words) if (other !== word) set.add(other);
      map.set(word, set);
    }
  }
  return new Map([...map].map(([k, v]) => [k, [...v]]));
})();
