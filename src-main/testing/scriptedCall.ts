/** A call a generated model is pushed to make (src-main/testing/scriptedEngine.ts). */
export interface ScriptedCall {
  readonly name: string;
  /** The arguments as JSON text, written as the grammar writes JSON (`{"key": value}`). */
  readonly params: string;
}

/** A scripted call with its arguments in the order the tool's schema lists them (the grammar writes them so). */
export function scripted(name: string, args: Readonly<Record<string, unknown>>): ScriptedCall {
  const params = Object.entries(args)
    .map(([key, value]) => `${JSON.stringify(key)}: ${JSON.stringify(value)}`)
    .join(', ');
  return { name, params: `{${params}}` };
}
