import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { describeIssues } from './requestIssues.js';

const issuesOf = (schema: z.ZodType, value: unknown) => {
  const parsed = schema.safeParse(value);
  if (parsed.success) throw new Error('expected the value to be refused');
  return parsed.error;
};

describe('describeIssues', () => {
  it('names each field with its problem', () => {
    const schema = z.object({ limit: z.number().int(), tool: z.string() }).strict();
    expect(describeIssues(issuesOf(schema, { limit: 1.5, tool: 3 }))).toBe(
      'limit: Invalid input: expected int, received number; tool: Invalid input: expected string, received number',
    );
    expect(describeIssues(issuesOf(schema, 'x'))).toBe('request: Invalid input: expected object, received string');
  });

  it('lists a few problems and counts the rest, however many were sent', () => {
    const message = describeIssues(issuesOf(z.object({ ids: z.array(z.string()) }), { ids: Array(20_000).fill(5) }));
    expect(message).toMatch(/^ids\.0: .*; ids\.1: .*; ids\.2: .* \(and 19997 more problems\)$/);
    expect(message.length).toBeLessThan(400);
  });

  it('cuts a long path or an echoed key instead of sending it back whole', () => {
    const unknownKey = describeIssues(issuesOf(z.object({}).strict(), { ['k'.repeat(10_000)]: 1 }));
    expect(unknownKey).toMatch(/^request: Unrecognized key: "k+…$/);
    expect(unknownKey.length).toBeLessThan(200);
    const longPath = describeIssues(
      issuesOf(z.object({ env: z.record(z.string().max(5), z.string()) }), { env: { ['e'.repeat(5000)]: 'v' } }),
    );
    expect(longPath.startsWith('env.eee')).toBe(true);
    expect(longPath.length).toBeLessThan(300);
  });
});
