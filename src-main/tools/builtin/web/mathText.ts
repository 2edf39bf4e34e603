/**
 * Formulas as text. Pages write them in MathML (`<math>`), often with a TeX or plain alternative beside it:
 * Wikipedia puts the TeX in `alttext` and in `<annotation encoding="application/x-tex">`, inside a span hidden
 * with `display: none` next to an image of the formula; MathJax keeps an assistive `<math>` beside its glyphs.
 * The text is the page's own alternative when it has one (alttext, then the TeX annotation), else the MathML
 * read out in one line: x^2, (a + b)/(2a), √(x), x_i.
 */

/** The little of a DOM element this needs (linkedom's elements; src-main has no DOM types). */
export interface MathNode {
  readonly nodeType: number;
  readonly nodeName: string;
  readonly textContent: string | null;
  readonly childNodes: ArrayLike<MathNode>;
  readonly parentNode?: MathNode | null;
  getAttribute?(name: string): string | null;
}

const ELEMENT_NODE = 1;
const TEX_ENCODINGS = new Set(['application/x-tex', 'application/x-latex', 'text/x-tex', 'text/latex']);
/** Operators written tight against their neighbours. */
const TIGHT = new Set(['(', ')', '[', ']', '{', '}', '|', '‖', '⁡', '⁢', '⁣', '', '.', "'", '′', '″', '!']);

const tagOf = (node: MathNode) => node.nodeName.toLowerCase();
const elements = (node: MathNode) => Array.from(node.childNodes).filter((c) => c.nodeType === ELEMENT_NODE);
const attribute = (node: MathNode, name: string) => node.getAttribute?.(name)?.trim() || null;

/** `{\displaystyle x^2}` → `x^2`: the wrapper Wikipedia puts around every formula says nothing to a reader. */
export function plainTex(tex: string): string {
  let text = tex.trim();
  const wrapped = /^\{\\(display|text|script|scriptscript)style\s*([\s\S]*)\}$/.exec(text);
  if (wrapped) text = wrapped[2]!.trim();
  return text.replace(/\s+/g, ' ');
}

/** The page's TeX for this formula, if it gives one. */
function texOf(math: MathNode): string | null {
  const alttext = attribute(math, 'alttext');
  if (alttext) return plainTex(alttext);
  const stack = [...elements(math)];
  while (stack.length) {
    const node = stack.shift()!;
    if (tagOf(node) === 'annotation' && TEX_ENCODINGS.has(attribute(node, 'encoding')?.toLowerCase() ?? '')) {
      const tex = node.textContent?.trim();
      if (tex) return plainTex(tex);
    }
    stack.push(...elements(node));
  }
  return null;
}

/** Parentheses around a part of more than one symbol, so x^(n+1) is not read as x^n + 1. */
function grouped(text: string): string {
  return /^[\p{L}\p{N}.]+$/u.test(text) || /^\(.*\)$/.test(text) ? text : `(${text})`;
}

/** Presentation MathML in one line. */
function linear(node: MathNode): string {
  if (node.nodeType !== ELEMENT_NODE) return '';
  const parts = elements(node);
  const part = (i: number) => (parts[i] ? linear(parts[i]!) : '');
  const base = (i: number) => part(i).trim();
  switch (tagOf(node)) {
    case 'mi':
    case 'mn':
    case 'ms':
      return (node.textContent ?? '').trim();
    case 'mtext':
      return (node.textContent ?? '').replace(/\s+/g, ' ');
    case 'mo': {
      const op = (node.textContent ?? '').trim();
      if (op === ',' || op === ';') return `${op} `;
      return TIGHT.has(op) ? op : ` ${op} `;
    }
    case 'mspace':
      return ' ';
    // A space after a script, so x^n a_k is not read as x^(na_k); spaces collapse in the end.
    case 'msup':
      return `${base(0)}^${grouped(part(1).trim())} `;
    case 'msub':
      return `${base(0)}_${grouped(part(1).trim())} `;
    case 'msubsup':
      return `${base(0)}_${grouped(part(1).trim())}^${grouped(part(2).trim())} `;
    case 'munder':
      return `${base(0)}_${grouped(part(1).trim())} `;
    case 'mover': {
      // An accent (a bar, a hat, an arrow) marks its base; anything else sits above it like an exponent.
      const above = part(1).trim();
      return attribute(node, 'accent') === 'true' || /^[\u0300-\u036f¯^~ˆ˜˙¨→←‾]$/.test(above)
        ? `${base(0)}${above}`
        : `${base(0)}^${grouped(above)} `;
    }
    case 'munderover':
      return `${base(0)}_${grouped(part(1).trim())}^${grouped(part(2).trim())} `;
    case 'mfrac':
      return `${grouped(part(0).trim())}/${grouped(part(1).trim())}`;
    case 'msqrt':
      return `√${grouped(parts.map(linear).join('').trim())}`;
    case 'mroot':
      return `${grouped(part(1).trim())}√${grouped(part(0).trim())}`;
    case 'mfenced': {
      const open = attribute(node, 'open') ?? '(';
      const close = attribute(node, 'close') ?? ')';
      const separator = attribute(node, 'separators') ?? ',';
      return `${open}${parts.map((p) => linear(p).trim()).join(`${separator} `)}${close}`;
    }
    case 'mtable':
      return `[${parts.map((row) => linear(row).trim()).join('; ')}]`;
    case 'mtr':
    case 'mlabeledtr':
      return parts.map((cell) => linear(cell).trim()).join(', ');
    case 'semantics':
      // The first child is the formula; the annotations are other ways of writing it.
      return part(0);
    case 'annotation':
    case 'annotation-xml':
    case 'mphantom':
    case 'none':
    case 'mprescripts':
      return '';
    default:
      return parts.map(linear).join('');
  }
}

/** The text of one `<math>` element: its TeX alternative if the page gives one, else the MathML in one line. */
export function mathText(math: MathNode): string {
  const tex = texOf(math);
  if (tex) return tex;
  return linear(math).replace(/\s+/g, ' ').replace(/\( /g, '(').replace(/ \)/g, ')').trim();
}

/** Whether an element is hidden the ways Readability and readers take as hidden. */
export function isHidden(node: MathNode): boolean {
  const style = (attribute(node, 'style') ?? '').replace(/\s+/g, '').toLowerCase();
  return (
    style.includes('display:none') ||
    style.includes('visibility:hidden') ||
    node.getAttribute?.('hidden') != null ||
    attribute(node, 'aria-hidden') === 'true'
  );
}
