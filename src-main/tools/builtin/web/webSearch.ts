import type { JsonValue, BuiltinToolDefinition, ToolOutcome } from '../../toolTypes.js';
import { ToolError } from '../../toolTypes.js';
import { intArg, objectSchema, shownArg } from '../files/common.js';
import { decodeBody, guardedGet, webUrl } from './guardedGet.js';
import { asObjects, asText, hostOf, plural, quoted, summarizer } from '../summaryText.js';

export type WebSearchArgs = { query: string; limit?: number };

export const SEARCH_DEFAULT_RESULTS = 5;
export const SEARCH_MAX_RESULTS = 10;
const SNIPPET_CHARS = 300;
/** A search answer is small; more than this is not a SearXNG result list. */
const SEARCH_MAX_BYTES = 1024 * 1024;

export interface SearchResult {
  readonly title: string;
  readonly url: string;
  readonly snippet: string;
}

/** SearXNG's JSON answer, read leniently: only results with a title and an http(s) URL are kept. */
export function searchResults(body: unknown, limit: number): SearchResult[] {
  const results = (body as { results?: unknown } | null)?.results;
  if (!Array.isArray(results))
    throw new ToolError('REMOTE_ERROR', 'The search endpoint answered JSON without a "results" list.');
  const out: SearchResult[] = [];
  const seen = new Set<string>();
  for (const item of results as Array<Record<string, unknown> | null>) {
    const url = typeof item?.url === 'string' ? item.url : '';
    if (!/^https?:\/\//i.test(url) || seen.has(url)) continue;
    seen.add(url);
    const title = typeof item?.title === 'string' ? oneLine(item.title) : '';
    const snippet = typeof item?.content === 'string' ? oneLine(item.content) : '';
    out.push({
      title: title || url,
      url,
      snippet: snippet.length > SNIPPET_CHARS ? `${snippet.slice(0, SNIPPET_CHARS)}…` : snippet,
    });
    if (out.length >= limit) break;
  }
  return out;
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

export const webSearch: BuiltinToolDefinition<WebSearchArgs> = {
  name: 'web_search',
  description:
    'Search the web (internet) for a query and list the results: title, URL and a short snippet each. ' +
    'Open a result with web_fetch to read it.',
  parameters: objectSchema(
    {
      query: { type: 'string', minLength: 1, maxLength: 500, description: 'What to search for, in a few words.' },
      limit: {
        type: 'integer',
        minimum: 1,
        maximum: SEARCH_MAX_RESULTS,
        description: `How many results (default ${SEARCH_DEFAULT_RESULTS}).`,
      },
    },
    ['query'],
  ),
  risk: 'read',
  touches: 'web',
  forPeople: {
    title: 'Search the web',
    text: 'Looks something up on the web, through the search service set in Settings.',
  },
  untrustedOutput: { what: 'web search results', always: true },
  reachesOut: true,
  needsNetwork: true,
  describe(args) {
    const query = shownArg(args.query);
    return {
      title: 'Search the web',
      summary: `Send "${query}" to the search endpoint set in Settings.`,
      details: [{ label: 'Query', value: query }],
    };
  },
  summarize: summarizer<WebSearchArgs>((r, args) => {
    const results = asObjects(r.results);
    const query = asText(r.query) ?? asText(args.query);
    if (results === undefined || query === undefined) return null;
    if (results.length === 0) return `No results for ${quoted(query)}.`;
    const [first] = results;
    const title = asText(first?.title);
    const url = asText(first?.url);
    const top =
      title !== undefined ? `, the first ${quoted(title, 50)}${url !== undefined ? ` (${hostOf(url)})` : ''}` : '';
    return `${plural(results.length, 'result')} for ${quoted(query)}${top}.`;
  }),
  async run(args, ctx): Promise<ToolOutcome> {
    const query = shownArg(args.query).trim();
    if (!query) throw new ToolError('INVALID_INPUT', 'The search query is empty.');
    const limit = intArg(args.limit, SEARCH_DEFAULT_RESULTS, 1, SEARCH_MAX_RESULTS);
    const endpoint = ctx.packs.searchEndpoint;
    if (!endpoint)
      throw new ToolError(
        'NOT_CONFIGURED',
        'Web search is not set up: enter a search endpoint (a SearXNG address such as https://searx.example/search) ' +
          'in Settings, under Tool packs.',
      );
    const url = webUrl(endpoint, 'The search endpoint');
    url.searchParams.set('q', query);
    url.searchParams.set('format', 'json');
    const response = await guardedGet(url, ctx, {
      purpose: 'web search',
      accept: 'application/json',
      maxBytes: SEARCH_MAX_BYTES,
    }).catch((error: unknown) => {
      // SearXNG refuses format=json with 403 unless its settings allow it: say what to change.
      if (error instanceof ToolError && error.code === 'REMOTE_ERROR' && / answered 403\b/.test(error.message))
        throw new ToolError('REMOTE_ERROR', `${error.message} A SearXNG server must list json under search.formats.`);
      throw error;
    });
    let body: unknown;
    try {
      body = JSON.parse(decodeBody(response, false));
    } catch {
      throw new ToolError(
        'REMOTE_ERROR',
        `The search endpoint ${response.url.host} did not answer JSON (${response.mediaType || 'no type'}${response.truncated ? ', cut at 1 MB' : ''}); ` +
          'is it a SearXNG-style /search address?',
      );
    }
    const results = searchResults(body, limit);
    return {
      result: {
        query,
        results: results as unknown as JsonValue,
        ...(results.length === 0 ? { note: 'No results.' } : {}),
      },
      untrustedSource: `web search results from ${response.url.host}`,
    };
  },
};
