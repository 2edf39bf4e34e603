/**
 * Writes the results of WRITTEN_CASES into the contacts fixtures' written/ folder, with the production code that
 * contact_add uses, for contactsReference.py to read with vobject. Run it before that script:
 *     npx tsx src-main/testing/reference/contactsWritten.ts
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseVcfBytes } from '../../tools/builtin/contacts/vcards.js';
import { appendCard } from '../../tools/builtin/contacts/vcardWrite.js';
import { REAL_FIXTURES, WRITTEN_CASES, WRITTEN_FIXTURES, writtenName } from './contactsWrittenCases.js';

mkdirSync(WRITTEN_FIXTURES, { recursive: true });
for (const c of WRITTEN_CASES) {
  const bytes = readFileSync(path.join(REAL_FIXTURES, c.source));
  const appended = appendCard(bytes, parseVcfBytes(bytes, c.source), c.card, c.source);
  writeFileSync(path.join(WRITTEN_FIXTURES, writtenName(c)), appended.bytes);
  console.log(`${writtenName(c)}: vCard ${appended.version}`);
}
