/**
 * mathjs limited to arithmetic and units. Every expression is parsed and checked before it is evaluated: only
 * numbers, units, operators and an allowed list of functions pass, so nothing can define functions or units,
 * import, re-enter the parser, or build a huge matrix; a result that is not finite is refused.
 */
import type { MathJsInstance, MathNode } from 'mathjs';
import { ToolError } from '../../toolTypes.js';

// Belt and braces: even if a name slipped past the check below, these no longer reach the parser or the units.
const disabled = (name: string) => () => {
  throw new ToolError('INVALID_INPUT', `${name} is not allowed in a calculation.`);
};

/** The limited instance, and its parser and evaluator taken before they were disabled for expressions. */
export interface SafeMath {
  readonly math: MathJsInstance;
  readonly parse: MathJsInstance['parse'];
  readonly evaluate: MathJsInstance['evaluate'];
  readonly format: MathJsInstance['format'];
}

let loading: Promise<SafeMath> | undefined;

/**
 * mathjs, limited as above. It takes seconds to load (2.3 s on a 2-core machine), so it is loaded by the first
 * calculation rather than with the tool list, which the app and every tool worker read at start.
 */
export function loadMath(): Promise<SafeMath> {
  loading ??= import('mathjs').then(({ all, create }) => {
    // `all` is typed as possibly undefined by mathjs's declarations; it is always present.
    const math = create(all as NonNullable<typeof all>, { number: 'number' });
    const { parse, evaluate, format } = math;
    math.import(
      Object.fromEntries(
        ['import', 'createUnit', 'evaluate', 'parse', 'compile', 'simplify', 'derivative', 'resolve', 'reviver'].map(
          (name) => [name, disabled(name)],
        ),
      ),
      { override: true },
    );
    return { math, parse, evaluate, format };
  });
  return loading;
}

export const MAX_EXPRESSION = 500;
const MAX_ARRAY_ITEMS = 1000;

const ALLOWED_FUNCTIONS = new Set([
  'abs',
  'sqrt',
  'cbrt',
  'nthRoot',
  'exp',
  'log',
  'log10',
  'log2',
  'pow',
  'mod',
  'round',
  'floor',
  'ceil',
  'fix',
  'sign',
  'min',
  'max',
  'mean',
  'median',
  'sum',
  'prod',
  'std',
  'variance',
  'gcd',
  'lcm',
  'hypot',
  'factorial',
  'sin',
  'cos',
  'tan',
  'asin',
  'acos',
  'atan',
  'atan2',
  'sinh',
  'cosh',
  'tanh',
  'sec',
  'csc',
  'cot',
  'deg',
  'to',
  'number',
  'unit',
  'percent',
  're',
  'im',
  'conj',
  'arg',
]);
const ALLOWED_NODES = new Set([
  'ConstantNode',
  'SymbolNode',
  'OperatorNode',
  'ParenthesisNode',
  'FunctionNode',
  'ArrayNode',
]);

function refuse(message: string): never {
  throw new ToolError('INVALID_INPUT', message);
}

function check(root: MathNode): void {
  root.traverse((node, _path, parent) => {
    if (!ALLOWED_NODES.has(node.type)) {
      const what =
        node.type === 'AssignmentNode' || node.type === 'FunctionAssignmentNode'
          ? 'Defining variables or functions'
          : node.type === 'RangeNode'
            ? 'Ranges (a:b)'
            : `This kind of expression (${node.type})`;
      refuse(`${what} is not allowed in a calculation.`);
    }
    if (node.type === 'FunctionNode') {
      const name = (node as MathNode & { fn: MathNode & { name?: string } }).fn.name ?? '';
      if (!ALLOWED_FUNCTIONS.has(name)) refuse(`The function ${name || '(computed)'} is not allowed in a calculation.`);
    }
    if (node.type === 'ArrayNode' && (node as MathNode & { items: MathNode[] }).items.length > MAX_ARRAY_ITEMS) {
      refuse(`A list of more than ${MAX_ARRAY_ITEMS} items is too long.`);
    }
    // A symbol used as a function name is checked above; any other symbol is a constant or a unit (pi, km).
    void parent;
  });
}

function finite(math: MathJsInstance, value: unknown): boolean {
  const each = (item: unknown) => finite(math, item);
  if (typeof value === 'number') return Number.isFinite(value);
  if (math.isUnit(value)) return value.value === null || Number.isFinite(value.value as number);
  if (math.isComplex(value)) return Number.isFinite(value.re) && Number.isFinite(value.im);
  if (math.isMatrix(value)) return (value.toArray() as unknown[]).flat(Infinity).every(each);
  if (Array.isArray(value)) return value.flat(Infinity).every(each);
  return typeof value === 'boolean';
}

export interface Evaluated {
  readonly value: unknown;
  readonly text: string;
}

/** "15% of 80" as people write it (mathjs has no `of`): the percentage times what follows. */
function percentOf(expression: string): string {
  return expression.replace(/(\d+(?:\.\d+)?)\s*%\s+of\s+/gi, '$1 / 100 * ');
}

/** Evaluates a checked expression; every refusal is a ToolError INVALID_INPUT with the reason. */
export async function evaluateSafely(input: string): Promise<Evaluated> {
  const { math, evaluate, parse, format } = await loadMath();
  if (input.length > MAX_EXPRESSION) refuse(`The expression is longer than ${MAX_EXPRESSION} characters.`);
  const expression = percentOf(input);
  let tree: MathNode;
  try {
    tree = parse(expression);
  } catch (err) {
    refuse(`"${expression}" is not an expression I can read: ${(err as Error).message}`);
  }
  check(tree);
  let value: unknown;
  try {
    value = evaluate(expression, {});
  } catch (err) {
    if (err instanceof ToolError) throw err;
    refuse(`"${expression}" cannot be computed: ${(err as Error).message}`);
  }
  if (typeof value === 'function') refuse(`"${expression}" names a function; call it with a value.`);
  if (!finite(math, value)) refuse(`The result of "${expression}" is too large (or not a number) to compute.`);
  return { value, text: format(value, { precision: 14 }) };
}
