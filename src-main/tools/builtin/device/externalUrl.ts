/**
 * The one rule for handing an address to the operating system (the default browser): device_open checks it before
 * the prompt, the desktop bridge again right before `shell.openExternal`, browser mode's bridge before the page opens
 * a tab. Only http and https: any other scheme starts whatever app registered it (file:, smb:, custom schemes of
 * installed apps, ms-* handlers), runs script (javascript:, data:), or opens a mail client with attachments (mailto:
 * in some clients). Homebody's own mail tools write mail.
 */
import { ToolError } from '../../toolTypes.js';

/** Longer addresses are where payloads hide; no page a person asks to open needs more. */
export const MAX_EXTERNAL_URL_LENGTH = 2048;

export type ExternalUrlCheck =
  { readonly ok: true; readonly url: string } | { readonly ok: false; readonly reason: string };

/** C0 controls, DEL and the C1 range: a URL parser drops some of them silently, so the prompt would show another address. */
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;

/** Whether `target` is a URL Homebody opens in the browser; the reason is safe to show (it never repeats the URL). */
export function checkExternalUrl(target: string): ExternalUrlCheck {
  if (target.length > MAX_EXTERNAL_URL_LENGTH) {
    return {
      ok: false,
      reason: `The address is ${target.length} characters long; Homebody opens addresses of at most ${MAX_EXTERNAL_URL_LENGTH}.`,
    };
  }
  if (CONTROL.test(target)) return { ok: false, reason: 'The address contains control characters.' };
  let url: URL;
  try {
    url = new URL(target);
  } catch {
    return { ok: false, reason: 'This is not a valid web address.' };
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    return {
      ok: false,
      reason: `Homebody opens only http and https addresses in the browser, not ${url.protocol.slice(0, 40)} ones.`,
    };
  }
  if (url.username !== '' || url.password !== '') {
    return { ok: false, reason: 'The address carries a user name or password; Homebody does not open those.' };
  }
  if (url.hostname === '') return { ok: false, reason: 'The address names no host.' };
  // Percent-encoding (of spaces, say) can lengthen it past the limit.
  if (url.href.length > MAX_EXTERNAL_URL_LENGTH) {
    return { ok: false, reason: `The address is longer than ${MAX_EXTERNAL_URL_LENGTH} characters once encoded.` };
  }
  return { ok: true, url: url.href };
}

/** The normalized URL, or ToolError INVALID_INPUT with the reason. */
export function externalUrlOrThrow(target: string): string {
  const checked = checkExternalUrl(target);
  if (!checked.ok) throw new ToolError('INVALID_INPUT', checked.reason);
  return checked.url;
}

/** Whether `target` is written as a URL (a scheme before a colon) rather than a path; `C:\` is a Windows path. */
export function looksLikeUrl(target: string): boolean {
  return /^[a-z][a-z0-9+.-]*:/i.test(target) && !/^[a-z]:([\\/]|$)/i.test(target);
}
