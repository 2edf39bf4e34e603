import { homedir } from 'node:os';
import { isAbsolute, join, normalize } from 'node:path';
import { HomebodyError } from '../../src-shared/contract/index.js';

/**
 * A path the user typed (a field on a page, a flag), as Homebody uses it: `~` and `~/…` are the home folder, a
 * full path is itself, and a relative path is refused. A relative path would be read from whatever folder the
 * Host runs in (the server's in browser mode, the package's under `npm run`), not the one the user means.
 * `what` names the field or flag in the message ("The model file", "--data-dir").
 */
export function userPath(raw: string, what: string, home: string = homedir()): string {
  const typed = raw.trim();
  if (typed === '') throw new HomebodyError('INVALID_REQUEST', `${what} is empty: give a full path.`);
  if (typed === '~') return home;
  if (typed.startsWith('~/') || (process.platform === 'win32' && typed.startsWith('~\\'))) {
    return normalize(join(home, typed.slice(2)));
  }
  if (typed.startsWith('~')) {
    throw new HomebodyError(
      'INVALID_REQUEST',
      `${what} "${typed}" names another user's home folder; only "~" (yours) is understood. Give a full path.`,
    );
  }
  if (!isAbsolute(typed)) {
    throw new HomebodyError(
      'INVALID_REQUEST',
      `${what} "${typed}" is a relative path; give a full path (starting with ${process.platform === 'win32' ? 'a drive letter' : '/'} or ~/), as it is not clear which folder it is relative to.`,
    );
  }
  return normalize(typed);
}
