/**
 * Conversations in the shape a chat template reads, named, for the tests that render them with the model's own
 * Jinja template and with Homebody's dialects. Together they cover what a tool-calling task writes: a system prompt
 * with tools, user turns, replies with one call, several calls and text before a call, nested objects and arrays,
 * integral floats and ints, booleans and null as arguments, results (several in a row, an error), thoughts before
 * and after the last user query, the generation prompt with thinking unset, on and off, a conversation without
 * tools, non-ASCII text, and a multi-turn task.
 */
import type { TemplateContext, TemplateMessage, TemplateTool, TemplateToolCall } from '../llm/dialect/templateTypes.js';
import { WrittenNumber, type WrittenValue } from '../llm/writtenJson.js';

export interface TemplateCase {
  readonly name: string;
  readonly context: TemplateContext;
}

/** Four tools shaped like Homebody's: nested objects, arrays, enums, numbers and booleans; non-ASCII text. */
export const CASE_TOOLS: readonly TemplateTool[] = [
  {
    type: 'function',
    function: {
      name: 'search_files',
      description: 'Finds files by name or content inside a granted folder.',
      parameters: {
        type: 'object',
        properties: {
          folder: { type: 'string', description: 'A granted folder, or a folder inside one.' },
          name: { type: 'string', description: 'Part of the file name, case-insensitive.' },
          contains: { type: ['string', 'null'], description: 'Text the file must contain; null for any.' },
          maxResults: { type: 'integer', minimum: 1, maximum: 200, default: 50 },
          includeHidden: { type: 'boolean', default: false },
        },
        required: ['folder'],
        additionalProperties: false,
      },
    },
  },
  {
    type: 'function',
    function: {
      name: 'calendar_add_event',
      description: 'Adds an event to the calendar.',
      parameters: {
        type: 'object',
        properties: {
          title: { type: 'string' },
          start: { type: 'string', format: 'date-time', description: 'ISO 8601, with the offset.' },
          durationMinutes: { type: 'number', exclusiveMinimum: 0 },
          attendees: {
            type: 'array',
            items: {
              type: 'object',
              properties: { email: { type: 'string' }, optional: { type: 'boolean' } },
              required: ['email'],
            },
          },
          reminder: {
            type: 'object',
            properties: {
              minutesBefore: { type: 'integer', minimum: 0 },
              method: { type: 'string', enum: ['notification', 'email'] },
            },
          },
        },
        required: ['title', 'start'],
      },
    },
  },
  {
    type: 'function',
    function: {
      name: 'convert_units',
      description: 'Converts a quantity between units (km, mi, °C, °F, kg, lb, ...).',
      parameters: {
        type: 'object',
        properties: {
          value: { type: 'number' },
          from: { type: 'string' },
          to: { type: 'string' },
          precision: { type: 'integer', minimum: 0, maximum: 12 },
        },
        required: ['value', 'from', 'to'],
      },
    },
  },
  {
    type: 'function',
    function: {
      name: 'mail_send',
      description: 'Envoie un e-mail — café, 日本語, 📧: it waits in the approval queue until the user approves.',
      parameters: {
        type: 'object',
        properties: {
          to: { type: 'array', items: { type: 'string' }, minItems: 1 },
          subject: { type: 'string' },
          body: { type: 'string' },
          priority: { type: 'string', enum: ['low', 'normal', 'high'] },
        },
        required: ['to', 'subject', 'body'],
      },
    },
  },
];

const SYSTEM = 'You are Homebody, an assistant on this computer. Use a tool when one fits; ask before guessing.';

function n(text: string): WrittenNumber {
  return new WrittenNumber(text);
}

function call(name: string, args: Record<string, WrittenValue>): TemplateToolCall {
  return { type: 'function', function: { name, arguments: args } };
}

const system: TemplateMessage = { role: 'system', content: SYSTEM };
const user = (content: string): TemplateMessage => ({ role: 'user', content });
const tool = (content: string): TemplateMessage => ({ role: 'tool', content });
const assistant = (
  content: string,
  calls?: readonly TemplateToolCall[],
  reasoning_content?: string,
): TemplateMessage => ({
  role: 'assistant',
  content,
  ...(calls ? { tool_calls: calls } : {}),
  ...(reasoning_content === undefined ? {} : { reasoning_content }),
});

const searchReports = call('search_files', { folder: '~/Documents/Reports', name: 'budget' });
const searchResult = '{"files":["~/Documents/Reports/budget-2026.xlsx","~/Documents/Reports/budget-notes.md"]}';

export const TEMPLATE_CASES: readonly TemplateCase[] = [
  {
    name: 'system prompt with tools, a user turn, generation prompt',
    context: { messages: [system, user('Find my budget report.')], tools: CASE_TOOLS, add_generation_prompt: true },
  },
  {
    name: 'tools without a system prompt',
    context: { messages: [user('Find my budget report.')], tools: CASE_TOOLS, add_generation_prompt: true },
  },
  {
    name: 'generation prompt with thinking on',
    context: {
      messages: [system, user('Find my budget report.')],
      tools: CASE_TOOLS,
      add_generation_prompt: true,
      enable_thinking: true,
    },
  },
  {
    name: 'generation prompt with thinking off',
    context: {
      messages: [system, user('Find my budget report.')],
      tools: CASE_TOOLS,
      add_generation_prompt: true,
      enable_thinking: false,
    },
  },
  {
    name: 'a conversation without tools',
    context: {
      messages: [system, user('What is a homebody?'), assistant('Someone who likes staying home.'), user('And you?')],
      add_generation_prompt: true,
    },
  },
  {
    name: 'one user turn, no system prompt, no tools, thinking off',
    context: { messages: [user('Hello!')], add_generation_prompt: true, enable_thinking: false },
  },
  {
    name: 'a reply with one call and its result',
    context: {
      messages: [system, user('Find my budget report.'), assistant('', [searchReports]), tool(searchResult)],
      tools: CASE_TOOLS,
      add_generation_prompt: true,
    },
  },
  {
    name: 'a reply with several calls and their results in a row',
    context: {
      messages: [
        system,
        user('Find the budget and the invoices, and convert 12 miles to km.'),
        assistant('', [
          searchReports,
          call('search_files', { folder: '~/Documents', name: 'invoice', maxResults: n('10') }),
          call('convert_units', { value: n('12'), from: 'mi', to: 'km' }),
        ]),
        tool(searchResult),
        tool('{"files":[]}'),
        tool('{"value":19.312128,"unit":"km"}'),
      ],
      tools: CASE_TOOLS,
      add_generation_prompt: true,
    },
  },
  {
    name: 'text before a call',
    context: {
      messages: [
        system,
        user('Find my budget report.'),
        assistant('I will look in your Reports folder first.', [searchReports]),
        tool(searchResult),
      ],
      tools: CASE_TOOLS,
      add_generation_prompt: true,
    },
  },
  {
    name: 'nested objects and arrays as arguments',
    context: {
      messages: [
        system,
        user('Book a review with Ana and Bo tomorrow at 10, remind me by mail.'),
        assistant('', [
          call('calendar_add_event', {
            title: 'Budget review',
            start: '2026-09-15T10:00:00+02:00',
            durationMinutes: n('45'),
            attendees: [{ email: 'ana@example.org' }, { email: 'bo@example.org', optional: true }],
            reminder: { minutesBefore: n('30'), method: 'email' },
          }),
          call('mail_send', {
            to: ['ana@example.org', 'bo@example.org'],
            subject: 'Budget review',
            body: 'See you tomorrow at 10.\nBring the numbers.',
          }),
        ]),
        tool('{"id":"evt-41","start":"2026-09-15T10:00:00+02:00"}'),
        tool('{"queued":true,"approval":"ap-7"}'),
      ],
      tools: CASE_TOOLS,
      add_generation_prompt: true,
    },
  },
  {
    name: 'an integral float and an int as arguments',
    context: {
      messages: [
        system,
        user('Convert 5 km to miles, two decimals.'),
        assistant('', [call('convert_units', { value: n('5.0'), from: 'km', to: 'mi', precision: n('2') })]),
        tool('{"value":3.11,"unit":"mi"}'),
      ],
      tools: CASE_TOOLS,
      add_generation_prompt: true,
    },
  },
  {
    name: 'fractional, negative and exponent numbers as arguments',
    context: {
      messages: [
        system,
        user('Convert -40.5 °C to °F, 1.5e3 g to kg and 2.5e-7 m to nm.'),
        assistant('', [
          call('convert_units', { value: n('-40.5'), from: '°C', to: '°F' }),
          call('convert_units', { value: n('1.5e3'), from: 'g', to: 'kg', precision: n('0') }),
          call('convert_units', { value: n('2.5e-7'), from: 'm', to: 'nm' }),
        ]),
        tool('{"value":-40.9,"unit":"°F"}'),
        tool('{"value":1.5,"unit":"kg"}'),
        tool('{"value":250,"unit":"nm"}'),
      ],
      tools: CASE_TOOLS,
      add_generation_prompt: true,
    },
  },
  {
    name: 'boolean arguments',
    context: {
      messages: [
        system,
        user('List everything in Reports, hidden files too, then only the visible ones.'),
        assistant('', [
          call('search_files', { folder: '~/Documents/Reports', includeHidden: true }),
          call('search_files', { folder: '~/Documents/Reports', includeHidden: false }),
        ]),
        tool(searchResult),
        tool(searchResult),
      ],
      tools: CASE_TOOLS,
      add_generation_prompt: true,
    },
  },
  {
    name: 'a null argument',
    context: {
      messages: [
        system,
        user('List the files in Reports, whatever they contain.'),
        assistant('', [call('search_files', { folder: '~/Documents/Reports', contains: null })]),
        tool(searchResult),
      ],
      tools: CASE_TOOLS,
      add_generation_prompt: true,
    },
  },
  {
    name: 'quotes, backslashes, newlines and markup in arguments and results',
    context: {
      messages: [
        system,
        user('Find files named "a\\b" containing <b>.'),
        assistant('', [call('search_files', { folder: 'C:\\Users\\me', name: 'say "hi"', contains: '<b>\n</b>' })]),
        tool('{"files":["C:\\\\Users\\\\me\\\\say \\"hi\\".txt"],"note":"tab\\there"}'),
      ],
      tools: CASE_TOOLS,
      add_generation_prompt: true,
    },
  },
  {
    name: 'an error result',
    context: {
      messages: [
        system,
        user('Find my budget report.'),
        assistant('', [call('search_files', { folder: '~/Reports', name: 'budget' })]),
        tool('Error: NOT_FOUND: no folder "~/Reports" in the granted folders. Granted: ~/Documents.'),
      ],
      tools: CASE_TOOLS,
      add_generation_prompt: true,
    },
  },
  {
    name: 'thoughts after the last user query',
    context: {
      messages: [
        system,
        user('Find my budget report.'),
        assistant('', [searchReports], 'The user wants a budget file; Reports is the likely folder.'),
        tool(searchResult),
        assistant('I found two files: budget-2026.xlsx and budget-notes.md.', undefined, 'Two matches. List both.'),
      ],
      tools: CASE_TOOLS,
      add_generation_prompt: false,
    },
  },
  {
    name: 'thoughts before the last user query',
    context: {
      messages: [system, user('What is 2 + 2?'), assistant('4.', undefined, 'Simple arithmetic.'), user('And 3 + 3?')],
      add_generation_prompt: true,
      enable_thinking: true,
    },
  },
  {
    name: 'non-ASCII text in a user turn and a result',
    context: {
      messages: [
        system,
        user('Réserve un café à 日本橋 demain à 9 h 🎉, et écris à Zoë.'),
        assistant('', [call('calendar_add_event', { title: 'Café à 日本橋 ☕', start: '2026-09-15T09:00:00+09:00' })]),
        tool('{"id":"evt-42","title":"Café à 日本橋 ☕"}'),
      ],
      tools: CASE_TOOLS,
      add_generation_prompt: true,
    },
  },
  {
    name: 'a multi-turn task',
    context: {
      messages: [
        system,
        user('Find my budget report and mail it to Ana.'),
        assistant('', [searchReports]),
        tool(searchResult),
        assistant('', [call('search_files', { folder: '~/Contacts', name: 'Ana', maxResults: n('1') })]),
        tool('Error: NOT_GRANTED: ~/Contacts is not a granted folder.'),
        assistant('I could not read your contacts. What is Ana’s address?'),
        user('ana@example.org'),
        assistant('Sending it now.', [
          call('mail_send', {
            to: ['ana@example.org'],
            subject: 'Budget 2026',
            body: 'Hi Ana,\n\nThe budget is in budget-2026.xlsx.\n',
            priority: 'normal',
          }),
        ]),
        tool('{"queued":true,"approval":"ap-8"}'),
      ],
      tools: CASE_TOOLS,
      add_generation_prompt: true,
    },
  },
];
