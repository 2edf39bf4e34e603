import { readFileSync } from 'node:fs';
import { parseHTML } from 'linkedom';
import { describe, expect, it } from 'vitest';
import { mathText, plainTex, type MathNode } from './mathText.js';
import { pageText } from './pageText.js';

const page = (name: string, file: 'source' | 'expected') =>
  readFileSync(new URL(`./fixtures/real/readability/${name}/${file}.html`, import.meta.url), 'utf8');

const words = (text: string) => text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];

/** Word precision and recall of `got` against `want`, each word counted as often as it occurs. */
function agreement(got: string, want: string): { precision: number; recall: number } {
  const left = new Map<string, number>();
  for (const word of words(want)) left.set(word, (left.get(word) ?? 0) + 1);
  let hits = 0;
  const gotWords = words(got);
  for (const word of gotWords) {
    const n = left.get(word) ?? 0;
    if (n > 0) {
      hits++;
      left.set(word, n - 1);
    }
  }
  return { precision: hits / Math.max(1, gotWords.length), recall: hits / Math.max(1, words(want).length) };
}

/**
 * What a reader of Readability's expected article gets: its text, and the alt text of each image it kept (which
 * Homebody now keeps too, as `[image: ...]`).
 */
function expectedText(name: string, { alts = true } = {}): string {
  const { document } = parseHTML(`<!doctype html><html><body>${page(name, 'expected')}</body></html>`);
  const images = Array.from(document.querySelectorAll('img')) as Array<{ getAttribute(name: string): string | null }>;
  const alt = alts ? images.map((img) => img.getAttribute('alt') ?? '') : [];
  return `${document.body.textContent ?? ''} ${alt.join(' ')}`;
}

const text = async (name: string) => (await pageText(page(name, 'source'))).text;
/** The text without Homebody's own word for an image, which no page has. */
const unlabelled = (got: string) => got.replaceAll('[image: ', '[');

describe('page text of Readability’s test pages', () => {
  it.each(['001', 'lwn-1', 'dropbox-blog', 'ehow-1'])(
    '%s: the words of Readability’s article and its images’ alt text, 0.99 or better both ways',
    async (name) => {
      const { precision, recall } = agreement(unlabelled(await text(name)), expectedText(name));
      expect(precision).toBeGreaterThanOrEqual(0.99);
      expect(recall).toBeGreaterThanOrEqual(0.99);
    },
  );

  it('keeps what the images of a how-to show, each where it stands', async () => {
    const got = await text('ehow-1');
    expect(got).toContain('[image: Glass cloche terrariums]');
    expect(got).toContain('[image: Dig a hole in the oasis.]');
    // Step by step: the picture of a step comes before the next step's picture.
    expect(got.indexOf('[image: Dig a hole in the oasis.]')).toBeLessThan(got.indexOf('[image: Attach moss.]'));
  });
});

describe('formulas on Wikipedia (MathML hidden beside an image, with TeX)', () => {
  it('reads each formula as its TeX where the prose had a hole ("is denoted by , then")', async () => {
    const got = await text('wikipedia-3');
    expect(got).toContain(
      'If the conjugate transpose of a matrix A is denoted by A^{\\mathsf {H}} , then the Hermitian property can be written concisely as',
    );
    expect(got).toContain('A{\\text{ Hermitian}}\\quad \\iff \\quad A=A^{\\mathsf {H}}');
    expect(got).not.toContain('denoted by , then');
    expect(got).not.toContain('\\displaystyle');
    // Each formula once: the image of it (aria-hidden) adds no second copy.
    expect(got.split('A^{\\mathsf {H}} , then').length).toBe(2);
    // The prose of Readability's article is all there (its images of formulas are the formulas above).
    expect(agreement(got, expectedText('wikipedia-3', { alts: false })).recall).toBeGreaterThanOrEqual(0.99);
  });
});

describe('formulas written by MathJax (glyphs and assistive MathML, no TeX)', () => {
  it('reads the MathML in one line, display equations as paragraphs of their own', async () => {
    const got = await text('mathjax');
    expect(got).toContain('a ≠ 0 , there are two solutions to ax^2 + bx + c = 0 and they are');
    expect(got).toContain('\n\nx = (− b ± √(b^2 − 4ac))/2a .\n\n');
    expect(got).toContain('(∑_(k = 1)^n a_k b_k)^2 ≤ (∑_(k = 1)^n a_k^2)(∑_(k = 1)^n b_k^2)');
    expect(got).toContain('√(3x − 1) + (1 + x)^2 is an example of an inline equation.');
    // Before, every formula vanished and with them most of the page's words (a recall of 0.37).
    expect(agreement(got, expectedText('mathjax')).recall).toBeGreaterThan(0.8);
  });
});

describe('MathML as text', () => {
  const math = (html: string) => {
    const { document } = parseHTML(`<!doctype html><html><body>${html}</body></html>`);
    return mathText(document.querySelector('math') as unknown as MathNode);
  };

  it('prefers the page’s alternative: alttext, then a TeX annotation, without Wikipedia’s wrapper', () => {
    expect(math('<math alttext="{\\displaystyle x^{2}}"><mi>y</mi></math>')).toBe('x^{2}');
    expect(
      math(
        '<math><semantics><mrow><mi>x</mi></mrow><annotation encoding="application/x-tex">{\\textstyle \\sqrt{x}}</annotation></semantics></math>',
      ),
    ).toBe('\\sqrt{x}');
    expect(plainTex('  {\\displaystyle a+b}  ')).toBe('a+b');
    expect(plainTex('{a}+{b}')).toBe('{a}+{b}');
  });

  it('reads presentation MathML otherwise, grouping what a script or fraction spans', () => {
    expect(math('<math><msup><mi>x</mi><mrow><mi>n</mi><mo>+</mo><mn>1</mn></mrow></msup></math>')).toBe('x^(n + 1)');
    expect(math('<math><mfrac><mn>1</mn><mrow><mn>2</mn><mi>a</mi></mrow></mfrac></math>')).toBe('1/2a');
    expect(math('<math><msqrt><mi>x</mi><mo>+</mo><mn>1</mn></msqrt></math>')).toBe('√(x + 1)');
    expect(math('<math><mroot><mi>x</mi><mn>3</mn></mroot></math>')).toBe('3√x');
    expect(math('<math><msub><mi>a</mi><mi>i</mi></msub><msub><mi>b</mi><mi>i</mi></msub></math>')).toBe('a_i b_i');
    expect(math('<math><mover><mi>v</mi><mo>→</mo></mover></math>')).toBe('v→');
    expect(math('<math><mi>f</mi><mo>(</mo><mi>x</mi><mo>)</mo><mo>,</mo><mi>y</mi></math>')).toBe('f(x), y');
    expect(
      math(
        '<math><mtable><mtr><mtd><mn>1</mn></mtd><mtd><mn>0</mn></mtd></mtr><mtr><mtd><mn>0</mn></mtd><mtd><mn>1</mn></mtd></mtr></mtable></math>',
      ),
    ).toBe('[1, 0; 0, 1]');
    expect(math('<math></math>')).toBe('');
  });

  it('keeps a formula that is its own paragraph apart, and an inline one inside its sentence', async () => {
    const { text: got } = await pageText(
      '<html><body><article><p>Let <math><mi>x</mi></math> be given, and take its square:</p><math display="block"><msup><mi>x</mi><mn>2</mn></msup></math><p>That is all.</p></article></body></html>',
    );
    expect(got).toBe('Let x be given, and take its square:\n\nx^2\n\nThat is all.');
  });
});

describe('image alt text', () => {
  const body = async (html: string) => (await pageText(`<html><body><main>${html}</main></body></html>`)).text;

  it('is kept where the image stands, unless it says nothing a reader would miss', async () => {
    expect(await body('<p>Before <img src="a.png" alt="A lighthouse at dusk"> after.</p>')).toBe(
      'Before [image: A lighthouse at dusk] after.',
    );
    expect(await body('<p>One <img src="a.png" alt=""> two <img src="b.png" alt="IMG_0042.JPG"> three</p>')).toBe(
      'One two three',
    );
    expect(await body('<p>One <img src="a.png" alt="spacer" role="presentation"> two</p>')).toBe('One two');
    expect(await body('<p>One <img src="a.png" alt="decor" aria-hidden="true"> two</p>')).toBe('One two');
    // A caption that says it already.
    expect(
      await body(
        '<figure><img src="a.png" alt="The harbour at night"><figcaption>The harbour at night. Photo: Ana</figcaption></figure>',
      ),
    ).toBe('The harbour at night. Photo: Ana');
  });
});
