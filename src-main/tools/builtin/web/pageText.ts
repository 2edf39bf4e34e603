import { Readability } from '@mozilla/readability';
import { isHidden, mathText } from './mathText.js';

/** The little of a DOM node the text walk needs (linkedom's nodes; src-main has no DOM types). */
interface DomNode {
  readonly nodeType: number;
  readonly nodeName: string;
  readonly textContent: string | null;
  readonly childNodes: ArrayLike<DomNode>;
  readonly parentNode?: DomNode | null;
  getAttribute?(name: string): string | null;
}

export interface PageText {
  readonly title: string;
  readonly text: string;
  readonly byline?: string;
  readonly siteName?: string;
}

const TEXT_NODE = 3;
const ELEMENT_NODE = 1;
/** Never text for the reader; dropped in the fallback and skipped by the walk. */
const SKIPPED = new Set(['SCRIPT', 'STYLE', 'NOSCRIPT', 'TEMPLATE', 'SVG', 'CANVAS', 'IFRAME', 'OBJECT', 'HEAD']);
/**
 * Page furniture, dropped before Readability reads the page (it keeps a short page's menu otherwise). A <header> may
 * hold an article's own title, so only the fallback drops it.
 */
const FURNITURE = ['nav', 'aside', 'footer', 'form', 'button', 'dialog', '[role=navigation]', '[aria-hidden=true]'];
const BLOCKS = new Set([
  'ADDRESS',
  'ARTICLE',
  'BLOCKQUOTE',
  'DD',
  'DIV',
  'DL',
  'DT',
  'FIGCAPTION',
  'FIGURE',
  'H1',
  'H2',
  'H3',
  'H4',
  'H5',
  'H6',
  'HR',
  'LI',
  'MAIN',
  'OL',
  'P',
  'PRE',
  'SECTION',
  'TABLE',
  'TR',
  'UL',
  'BODY',
  'HTML',
]);

/**
 * The readable text of an HTML page: Readability (Firefox's reader view) picks the article over a linkedom DOM,
 * which runs no scripts and loads nothing. A page without an article (a short one, an index) gives its body text
 * without scripts, styles and navigation. Paragraphs stay apart; headings and list items are marked.
 */
export async function pageText(html: string): Promise<PageText> {
  // linkedom takes half a second to load; the tool list (read by the app and every tool worker at start) need not.
  const { parseHTML } = await import('linkedom');
  const { document } = parseHTML(html) as unknown as { document: LinkedomDocument };
  const title = clean(document.title ?? '');
  formulasAsText(document);
  drop(document, FURNITURE);
  // Readability changes the document it reads, so it gets its own copy.
  const copy = parseHTML(html).document as unknown as LinkedomDocument;
  formulasAsText(copy);
  drop(copy, FURNITURE);
  const article = new Readability<DomNode>(copy as never, {
    serializer: (node) => node as unknown as DomNode,
  }).parse();
  const articleText = article?.content ? blockText(article.content) : '';
  if (article && articleText.length > 0) {
    return {
      title: clean(article.title ?? '') || title,
      text: articleText,
      ...(article.byline ? { byline: clean(article.byline) } : {}),
      ...(article.siteName ? { siteName: clean(article.siteName) } : {}),
    };
  }
  drop(document, ['header']);
  const body = document.body ?? document.documentElement;
  return { title, text: body ? blockText(body as unknown as DomNode) : '' };
}

function drop(document: LinkedomDocument, selectors: readonly string[]): void {
  for (const node of Array.from(document.querySelectorAll(selectors.join(',')))) node.remove();
}

interface LinkedomElement extends DomNode {
  remove(): void;
  textContent: string | null;
  readonly parentNode: (LinkedomElement & { replaceChild(next: unknown, old: unknown): void }) | null;
  readonly children: ArrayLike<LinkedomElement>;
}

interface LinkedomDocument {
  readonly title?: string;
  readonly body?: unknown;
  readonly documentElement?: unknown;
  querySelectorAll(selector: string): Iterable<LinkedomElement>;
  createElement(tag: string): LinkedomElement;
}

/**
 * Each formula (`<math>`) becomes its text, before anything reads the page: Wikipedia hides its MathML in a span
 * with `display: none` (which Readability drops, as it should drop hidden text) beside an image of the formula
 * marked aria-hidden (which the furniture goes with), so the hidden wrapper that holds nothing but the formula is
 * replaced with it, as is MathJax's container (Readability drops it, glyphs and assistive MathML alike). A formula
 * shown as a block (`display="block"`) stays a paragraph of its own.
 */
function formulasAsText(document: LinkedomDocument): void {
  for (const math of Array.from(document.querySelectorAll('math'))) {
    const text = mathText(math);
    let target: LinkedomElement = math;
    for (let parent = target.parentNode; parent; parent = target.parentNode) {
      // MathJax's own elements (mjx-container, mjx-assistive-mml) are renderings of this formula, nothing else.
      const mathJax = parent.nodeName.toUpperCase().startsWith('MJX-');
      const hiddenWrapper =
        isHidden(parent) &&
        parent.children.length === 1 &&
        clean(parent.textContent ?? '') === clean(target.textContent ?? '');
      if (!mathJax && !hiddenWrapper) break;
      target = parent;
    }
    const block = math.getAttribute?.('display') === 'block' || target.getAttribute?.('display') === 'true';
    const holder = document.createElement(block ? 'div' : 'span');
    holder.textContent = text ? ` ${text} ` : '';
    target.parentNode?.replaceChild(holder, target);
  }
}

/** An image's alt text as the page text gives it, or null when it says nothing a reader would miss. */
function imageText(node: DomNode): string | null {
  const alt = clean(node.getAttribute?.('alt') ?? '');
  if (!alt || node.getAttribute?.('aria-hidden') === 'true') return null;
  const role = node.getAttribute?.('role');
  if (role === 'presentation' || role === 'none') return null;
  // A file name is no description.
  if (/^[^\s]+\.(jpe?g|png|gif|webp|svg|avif|bmp)$/i.test(alt)) return null;
  // A figure whose caption says it already (often with a credit after it) has it in the text.
  for (let parent = node.parentNode; parent; parent = parent.parentNode) {
    if (parent.nodeName.toUpperCase() !== 'FIGURE') continue;
    if (clean(parent.textContent ?? '').includes(alt)) return null;
    break;
  }
  return `[image: ${alt}]`;
}

/** Text with blank lines between blocks, one line per list item and line break, spaces collapsed. */
export function blockText(root: DomNode): string {
  const out: string[] = [];
  const walk = (node: DomNode) => {
    if (node.nodeType === TEXT_NODE) {
      out.push((node.textContent ?? '').replace(/\s+/g, ' '));
      return;
    }
    if (node.nodeType !== ELEMENT_NODE) return;
    const tag = node.nodeName.toUpperCase();
    if (SKIPPED.has(tag)) return;
    if (tag === 'BR') {
      out.push('\n');
      return;
    }
    if (tag === 'IMG') {
      const text = imageText(node);
      if (text) out.push(' ', text, ' ');
      return;
    }
    if (tag === 'PRE') {
      out.push('\n\n', node.textContent ?? '', '\n\n');
      return;
    }
    const block = BLOCKS.has(tag);
    if (block) out.push(tag === 'LI' || tag === 'TR' || tag === 'DT' || tag === 'DD' ? '\n' : '\n\n');
    if (/^H[1-6]$/.test(tag)) out.push('#'.repeat(Number(tag[1])), ' ');
    if (tag === 'LI') out.push('- ');
    if (tag === 'TD' || tag === 'TH') out.push(' | ');
    for (const child of Array.from(node.childNodes)) walk(child);
    if (block) out.push('\n\n');
  };
  walk(root);
  return out
    .join('')
    .split('\n')
    .map((line) => line.replace(/[ \t]+/g, ' ').trim())
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .replace(/\n\n(?=- )/g, '\n')
    .trim();
}

function clean(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}
