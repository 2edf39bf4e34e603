import { z } from 'zod';

/**
 * Keys refused anywhere in a tool call's arguments. JSON.parse makes `"__proto__"` an own key, but the first plain
 * assignment or spread of it sets an object's prototype instead: the key vanishes from one copy (the JSON that is
 * stored and run) and shows through in another (a field read for the approval card), so what the user is shown and
 * what runs are no longer the same data. `constructor` and `prototype` are refused with it: no tool needs them and
 * they name the same machinery.
 */
export const RESERVED_ARGUMENT_KEYS: readonly string[] = ['__proto__', 'constructor', 'prototype'];

const RESERVED = new Set(RESERVED_ARGUMENT_KEYS);

export function isReservedArgumentKey(key: string): boolean {
  return RESERVED.has(key);
}

/**
 * The path of the first reserved key in a JSON value (nested objects and arrays too), or null when there is none.
 * Walked with a stack of its own, not by recursion: a request may nest 50,000 deep, which is a refusal to give, not a
 * stack to overflow.
 */
export function findReservedKey(value: unknown): Array<string | number> | null {
  interface Step {
    readonly value: unknown;
    readonly key: string | number | null;
    readonly parent: Step | null;
  }
  const pathOf = (step: Step, last: string | number): Array<string | number> => {
    const path: Array<string | number> = [last];
    for (let at: Step | null = step; at !== null && at.key !== null; at = at.parent) path.push(at.key);
    return path.reverse();
  };
  const stack: Step[] = [{ value, key: null, parent: null }];
  while (stack.length > 0) {
    const step = stack.pop() as Step;
    const current = step.value;
    if (typeof current !== 'object' || current === null) continue;
    const children: Step[] = [];
    if (Array.isArray(current)) {
      current.forEach((item, i) => children.push({ value: item, key: i, parent: step }));
    } else {
      // Object.keys lists an own "__proto__" (as JSON.parse makes it); a `for...in` or a spread would not be safe here.
      for (const key of Object.keys(current)) {
        if (RESERVED.has(key)) return pathOf(step, key);
        children.push({ value: (current as Record<string, unknown>)[key], key, parent: step });
      }
    }
    // Reversed, so the first child is looked at first (the first reserved key in reading order is the one named).
    for (let k = children.length - 1; k >= 0; k--) stack.push(children[k] as Step);
  }
  return null;
}

/**
 * A tool call's arguments as a request carries them (an approval with edited arguments). The raw value is searched
 * before zod copies it: zod's record drops an own `__proto__` without a word, and passes one nested in a value on.
 */
export const ToolArgumentsSchema = z
  .unknown()
  .superRefine((value, ctx) => {
    const found = findReservedKey(value);
    if (!found) return;
    ctx.addIssue({
      code: 'custom',
      path: found,
      message: `"${String(found.at(-1))}" is not allowed as a key in tool arguments`,
    });
  })
  .pipe(z.record(z.string(), z.unknown()));
