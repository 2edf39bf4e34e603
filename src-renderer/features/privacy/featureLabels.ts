import { EGRESS_FEATURE_LABELS, type EgressFeature } from '../../../src-shared/contract/index.js';

/** "Web tools" for "Web tools (fetch a page, web search)": the label without its explanation, for buttons. */
export function featureShortLabel(feature: EgressFeature): string {
  return EGRESS_FEATURE_LABELS[feature].replace(/\s*\(.*\)$/u, '');
}
