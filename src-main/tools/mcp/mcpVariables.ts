import { sep } from 'node:path';
import { HomebodyError } from '../../../src-shared/contract/index.js';

/**
 * VS Code's variables in an mcp.json (code.visualstudio.com/docs/reference/variables-reference, and the MCP
 * configuration reference): `${env:NAME}` is the environment variable, `${userHome}` the home folder,
 * `${pathSeparator}` (or `${/}`) the path separator, and `${input:ID}` a value VS Code asks the user for when the
 * server first starts, as the file's `inputs` describe it. Homebody resolves them once, when the file is imported.
 * It cannot ask anything during an import, so an input is never filled in silently (not even with its default):
 * the import says which values are needed and where. Variables that only an editor knows (the open folder, the
 * current file, a setting, a command) are refused with the same kind of sentence. Any other `${...}` is left as
 * it is, as VS Code leaves a name it does not know.
 */

/** One entry of the file's `inputs`, as far as its message needs it. */
export interface McpInput {
  readonly id: string;
  readonly type: string;
  readonly description: string | null;
  readonly options: readonly string[];
  readonly command: string | null;
}

export interface VariableContext {
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly home: string;
  readonly inputs: ReadonlyMap<string, McpInput>;
}

/** A value the import needs from the user: the input, the server and the field that use it. */
export interface NeededInput {
  readonly input: string;
  readonly server: string;
  readonly field: string;
}

/** Variables that name something open in the editor, which Homebody has no notion of. */
const EDITOR_ONLY = new Set([
  'workspaceFolder',
  'workspaceFolderBasename',
  'workspaceRoot',
  'file',
  'fileWorkspaceFolder',
  'relativeFile',
  'relativeFileDirname',
  'fileBasename',
  'fileBasenameNoExtension',
  'fileExtname',
  'fileDirname',
  'fileDirnameBasename',
  'cwd',
  'lineNumber',
  'columnNumber',
  'selectedText',
  'execPath',
  'defaultBuildTask',
]);

const VARIABLE = /\$\{([^{}]*)\}/g;

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The file's `inputs` by id; a malformed list is named, since a server may depend on it. */
export function readInputs(raw: unknown): Map<string, McpInput> {
  const inputs = new Map<string, McpInput>();
  if (raw === undefined) return inputs;
  if (!Array.isArray(raw)) throw new HomebodyError('INVALID_REQUEST', '"inputs" must be a list of inputs.');
  raw.forEach((entry, index) => {
    if (!isObject(entry) || typeof entry.id !== 'string' || entry.id === '') {
      throw new HomebodyError('INVALID_REQUEST', `inputs[${index}] needs an "id".`);
    }
    const options = Array.isArray(entry.options)
      ? entry.options.map((o) => (isObject(o) ? String(o.value ?? o.label ?? '') : String(o)))
      : [];
    inputs.set(entry.id, {
      id: entry.id,
      type: typeof entry.type === 'string' ? entry.type : 'promptString',
      description: typeof entry.description === 'string' ? entry.description : null,
      options,
      command: typeof entry.command === 'string' ? entry.command : null,
    });
  });
  return inputs;
}

/**
 * `text` with its variables resolved. `where` names the value in messages (`servers["github"] headers.Authorization`);
 * an input that needs asking is added to `needed` and left as it is (the caller refuses the file once it has them all).
 */
export function resolveVariables(
  text: string,
  context: VariableContext,
  where: { readonly server: string; readonly label: string; readonly field: string },
  needed: NeededInput[],
): string {
  return text.replace(VARIABLE, (whole, body: string) => {
    const colon = body.indexOf(':');
    const kind = colon === -1 ? body : body.slice(0, colon);
    const argument = colon === -1 ? '' : body.slice(colon + 1);
    if (kind === 'env' && colon !== -1) {
      const value = context.env[argument];
      if (value === undefined) {
        throw new HomebodyError(
          'INVALID_REQUEST',
          `${where.label} ${where.field} uses ${whole}, but Homebody's environment has no variable ${argument}: set it before starting Homebody, or write the value in its place.`,
        );
      }
      return value;
    }
    if (kind === 'input' && colon !== -1) {
      if (!context.inputs.has(argument)) {
        throw new HomebodyError(
          'INVALID_REQUEST',
          `${where.label} ${where.field} uses ${whole}, which the file's "inputs" do not define.`,
        );
      }
      needed.push({ input: argument, server: where.server, field: where.field });
      return whole;
    }
    if (body === 'userHome') return context.home;
    if (body === 'pathSeparator' || body === '/') return sep;
    if (EDITOR_ONLY.has(kind) || kind === 'config' || kind === 'command') {
      throw new HomebodyError(
        'INVALID_REQUEST',
        `${where.label} ${where.field} uses ${whole}, which only VS Code can fill in (${editorMeaning(kind)}); write the value in its place.`,
      );
    }
    return whole;
  });
}

function editorMeaning(kind: string): string {
  if (kind === 'config') return 'one of its settings';
  if (kind === 'command') return 'the result of one of its commands';
  if (kind.startsWith('workspace') || kind === 'fileWorkspaceFolder') return 'the folder open in it';
  if (kind === 'cwd') return 'its working folder';
  if (kind === 'execPath') return 'its own program';
  if (kind === 'defaultBuildTask') return 'its build task';
  return 'the file or selection open in it';
}

/** One sentence per value the user must give, grouped by input, for the refusal of an import. */
export function neededInputsMessage(needed: readonly NeededInput[], inputs: ReadonlyMap<string, McpInput>): string {
  const byInput = new Map<string, NeededInput[]>();
  for (const need of needed) byInput.set(need.input, [...(byInput.get(need.input) ?? []), need]);
  const lines = [...byInput].map(([id, uses]) => {
    const input = inputs.get(id);
    const asked =
      input?.type === 'pickString'
        ? `a choice${input.options.length ? ` among ${input.options.map((o) => `"${o}"`).join(', ')}` : ''}`
        : input?.type === 'command'
          ? `the result of the VS Code command ${input.command ?? '(none named)'}, which Homebody cannot run`
          : 'a value typed in';
    const description = input?.description ? ` "${input.description}"` : '';
    const where = uses.map((u) => `servers["${u.server}"] ${u.field}`).join(', ');
    return `\${input:${id}}${description} (${asked}), used in ${where}`;
  });
  return (
    `This file needs ${lines.length === 1 ? 'a value' : `${lines.length} values`} that VS Code asks for when a server starts, ` +
    `and Homebody cannot ask while importing: ${lines.join('; ')}. ` +
    'Write each value in place of its ${input:...} in the file and import it again, or add the server in Settings and type the value there. Nothing was imported.'
  );
}
