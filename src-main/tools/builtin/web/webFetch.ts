import type { BuiltinToolDefinition, ToolOutcome } from '../../toolTypes.js';
import { ToolError } from '../../toolTypes.js';
import { intArg, objectSchema, shownArg } from '../files/common.js';
import { decodeBody, DEFAULT_MAX_BYTES, guardedGet, webUrl } from './guardedGet.js';
import { pageText } from './pageText.js';
import { asText, hostOf, plural, quoted, summarizer, wordCount } from '../summaryText.js';

export type WebFetchArgs = { url: string; maxChars?: number };

/** What the model gets of a page unless it asks for more: enough for an article, small for a 4k context. */
export const FETCH_DEFAULT_CHARS = 6000;
export const FETCH_MAX_CHARS = 40_000;

const HTML_TYPES = new Set(['text/html', 'application/xhtml+xml']);

type Kind = 'html' | 'text' | 'json';

/** How to read a response: by its declared type, or by a look at its first bytes when it declared none. */
function kindOf(mediaType: string, body: Uint8Array): Kind | null {
  if (HTML_TYPES.has(mediaType)) return 'html';
  if (mediaType === 'application/json' || mediaType.endsWith('+json')) return 'json';
  if (mediaType.startsWith('text/') || mediaType === 'application/xml' || mediaType.endsWith('+xml')) return 'text';
  if (mediaType !== '' && mediaType !== 'application/octet-stream') return null;
  const head = body.subarray(0, 1024);
  if (head.includes(0)) return null;
  const start = new TextDecoder().decode(head).trimStart();
  if (/^<(!doctype html|html|head|body)/i.test(start)) return 'html';
  return start.startsWith('{') || start.startsWith('[') ? 'json' : 'text';
}

/** Cuts at the last word boundary before `max` characters. */
function cut(text: string, max: number): string {
  if (text.length <= max) return text;
  const slice = text.slice(0, max);
  const space = slice.search(/\s\S*$/);
  return space > max * 0.8 ? slice.slice(0, space) : slice;
}

export const webFetch: BuiltinToolDefinition<WebFetchArgs> = {
  name: 'web_fetch',
  description:
    'Open a web page by its URL and read its title and main text (menus, ads and scripts left out). ' +
    'Also reads plain text and JSON addresses. Use web_search first to find pages.',
  parameters: objectSchema(
    {
      url: { type: 'string', minLength: 1, maxLength: 2048, description: 'The full address, starting with https://.' },
      maxChars: {
        type: 'integer',
        minimum: 500,
        maximum: FETCH_MAX_CHARS,
        description: `Return at most this many characters of text (default ${FETCH_DEFAULT_CHARS}).`,
      },
    },
    ['url'],
  ),
  risk: 'read',
  touches: 'web',
  forPeople: { title: 'Read a web page', text: 'Reads the text of a web page, without its menus and ads.' },
  untrustedOutput: { what: 'web page', always: true, from: 'url' },
  reachesOut: true,
  needsNetwork: true,
  describe(args) {
    const url = shownArg(args.url);
    return {
      title: 'Read a web page',
      summary: `Download ${url} and read its text. The page's server sees this request.`,
      details: [{ label: 'Address', value: url }],
    };
  },
  summarize: summarizer<WebFetchArgs>((r) => {
    const url = asText(r.url);
    if (url === undefined || typeof r.text !== 'string') return null;
    const host = hostOf(url);
    const title = asText(r.title);
    const words = plural(wordCount(r.text), 'word');
    const amount = r.truncated === true ? `the first ${words}` : words;
    const page = title !== undefined ? `the page ${quoted(title)} at ${host}` : `the page at ${host}`;
    return `Read ${page} (${amount}).`;
  }),
  async run(args, ctx): Promise<ToolOutcome> {
    const maxChars = intArg(args.maxChars, FETCH_DEFAULT_CHARS, 500, FETCH_MAX_CHARS);
    const url = webUrl(args.url);
    const response = await guardedGet(url, ctx, {
      purpose: 'web page',
      accept: 'text/html,application/xhtml+xml,text/plain;q=0.9,application/json;q=0.9,*/*;q=0.5',
    });
    const kind = kindOf(response.mediaType, response.body);
    if (kind === null)
      throw new ToolError(
        'INVALID_INPUT',
        `${response.url.href} is ${response.mediaType || 'binary data'}, not a page that can be read as text.`,
      );
    const raw = decodeBody(response, kind === 'html');
    const page =
      kind === 'html' ? await pageText(raw) : { title: '', text: kind === 'json' ? prettyJson(raw) : raw.trim() };
    const text = cut(page.text, maxChars);
    const truncated = text.length < page.text.length || response.truncated;
    return {
      result: {
        url: response.url.href,
        title: page.title,
        ...('byline' in page && page.byline ? { byline: page.byline } : {}),
        text,
        ...(truncated
          ? {
              truncated: true,
              note: response.truncated
                ? `Only the first ${DEFAULT_MAX_BYTES / (1024 * 1024)} MB of the page were downloaded.`
                : `The text has ${page.text.length} characters; pass maxChars to read more.`,
            }
          : {}),
      },
      untrustedSource: `web page ${response.url.host}`,
    };
  },
};

/** JSON re-indented for reading; a body that only claims to be JSON passes through as it came. */
function prettyJson(raw: string): string {
  try {
    return JSON.stringify(JSON.parse(raw), null, 1);
  } catch {
    return raw.trim();
  }
}
