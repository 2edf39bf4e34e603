import type { BuiltinToolDefinition } from '../../toolTypes.js';
import { objectSchema, shownArg } from '../files/common.js';
import { MAX_EXPRESSION, evaluateSafely } from './safeMath.js';
import { asText, groupDigits, plain, summarizer } from '../summaryText.js';

export type CalculateArgs = { expression: string };

export const calculate: BuiltinToolDefinition<CalculateArgs> = {
  name: 'calculate',
  description: 'Compute a math expression, e.g. "(12.5 * 3) / 4", "sqrt(2)", "15% of 80", "3 km + 200 m".',
  parameters: objectSchema(
    {
      expression: {
        type: 'string',
        minLength: 1,
        maxLength: MAX_EXPRESSION,
        description: 'The expression to compute.',
      },
    },
    ['expression'],
  ),
  risk: 'read',
  touches: 'nothing',
  forPeople: {
    title: 'Calculate',
    text: 'Works out a sum, a percentage or another calculation, with units if you like.',
  },
  describe(args) {
    return {
      title: 'Calculate',
      summary: `Compute ${shownArg(args.expression)}.`,
      details: [{ label: 'Expression', value: shownArg(args.expression) }],
    };
  },
  summarize: summarizer<CalculateArgs>((r) => {
    const expression = asText(r.expression);
    const result = asText(r.result);
    if (expression === undefined || result === undefined) return null;
    return `${plain(expression, 100)} = ${groupDigits(plain(result, 80))}`;
  }),
  async run(args) {
    const { text } = await evaluateSafely(args.expression);
    return { result: { expression: args.expression, result: text } };
  },
};
