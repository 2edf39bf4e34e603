import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { CatalogEntrySchema, type CatalogEntry } from '../../../src-shared/contract/index.js';
import { resourcePath } from '../../util/appPaths.js';

const CatalogFileSchema = z.object({ version: z.literal(1), models: z.array(CatalogEntrySchema) });

/** The model catalog from resources/models/catalog.json, validated: a broken entry fails loudly at start. */
export function loadCatalog(path = resourcePath('models', 'catalog.json')): CatalogEntry[] {
  const parsed = CatalogFileSchema.safeParse(JSON.parse(readFileSync(path, 'utf8')));
  if (!parsed.success) throw new Error(`${path} is not a valid model catalog: ${z.prettifyError(parsed.error)}`);
  return parsed.data.models;
}
