/**
 * The text of an HTML part, for a message whose only text is HTML inside multipart/alternative: mailparser converts
 * HTML to text for a message that is HTML alone, not for an alternative that lacks its plain part (real spam and
 * some mailers send that), whose text then came out empty.
 */
interface Node {
  readonly nodeType: number;
  readonly nodeName: string;
  readonly nodeValue: string | null;
  readonly childNodes: ArrayLike<Node>;
}

const SKIPPED = new Set(['SCRIPT', 'STYLE', 'HEAD', 'TITLE', 'NOSCRIPT', 'TEMPLATE']);
const BREAKS = new Set(['BR', 'P', 'DIV', 'LI', 'TR', 'TABLE', 'H1', 'H2', 'H3', 'H4', 'H5', 'H6', 'BLOCKQUOTE', 'HR']);

function walk(node: Node, out: string[]): void {
  if (node.nodeType === 3) {
    out.push((node.nodeValue ?? '').replace(/\s+/g, ' '));
    return;
  }
  if (node.nodeType !== 1 && node.nodeType !== 9 && node.nodeType !== 11) return;
  if (SKIPPED.has(node.nodeName.toUpperCase())) return;
  const block = BREAKS.has(node.nodeName.toUpperCase());
  if (block) out.push('\n');
  for (let i = 0; i < node.childNodes.length; i++) walk(node.childNodes[i]!, out);
  if (block) out.push('\n');
}

export async function htmlText(html: string): Promise<string> {
  // linkedom loads on the first such message only (the web tools use it too).
  const { parseHTML } = await import('linkedom');
  const { document } = parseHTML(`<!doctype html><html><body>${html}</body></html>`) as unknown as {
    document: Node;
  };
  const out: string[] = [];
  walk(document, out);
  return out
    .join('')
    .split('\n')
    .map((line) => line.trim())
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}
