/**
 * A small IMAP4rev1 server on loopback for the mail tests: folders with UIDVALIDITY and UIDs, LOGIN, LIST, STATUS,
 * EXAMINE/SELECT, SEARCH and FETCH of headers and whole messages, in plain TCP or TLS from the first byte (with a
 * certificate the test makes). Enough of RFC 3501 for imapflow's reading; no flags are kept, nothing is written.
 */
import net from 'node:net';
import tls from 'node:tls';

export interface ImapTestFolder {
  uidValidity: number;
  /** Messages in UID order; a message's UID is `firstUid` + its index. */
  messages: Buffer[];
  firstUid?: number;
  specialUse?: string;
}

export interface ImapTestServer {
  readonly port: number;
  readonly folders: Record<string, ImapTestFolder>;
  /** Connections accepted so far, and the LOGINs that reached the server (to prove nothing was sent). */
  connections(): number;
  logins(): number;
  close(): Promise<void>;
}

function quote(text: string): string {
  return `"${text.replace(/["\\]/g, (c) => `\\${c}`)}"`;
}

/** The arguments of a command line: atoms, "quoted strings", and (lists) kept whole. */
function args(line: string): string[] {
  const out: string[] = [];
  const re = /"((?:[^"\\]|\\.)*)"|(\((?:[^()]|\([^()]*\))*\))|(\S+)/g;
  for (let m = re.exec(line); m; m = re.exec(line))
    out.push(m[1] !== undefined ? m[1].replace(/\\(.)/g, '$1') : (m[2] ?? m[3]!));
  return out;
}

function inSet(set: string, value: number, max: number): boolean {
  return set.split(',').some((part) => {
    const [a, b] = part.split(':').map((n) => (n === '*' ? max : Number(n))) as [number, number | undefined];
    const [low, high] = b === undefined ? [a, a] : [Math.min(a, b), Math.max(a, b)];
    return value >= low && value <= high;
  });
}

function headerOf(message: Buffer): Buffer {
  const crlf = message.indexOf('\r\n\r\n');
  const lf = message.indexOf('\n\n');
  const end = [crlf >= 0 ? crlf + 4 : -1, lf >= 0 ? lf + 2 : -1].filter((n) => n >= 0);
  return end.length ? message.subarray(0, Math.min(...end)) : message;
}

export async function startImapTestServer(options: {
  user: string;
  password: string;
  folders: Record<string, ImapTestFolder>;
  /** TLS from the first byte with this key and certificate (PEM). */
  tls?: { key: string; cert: string };
}): Promise<ImapTestServer> {
  const folders = options.folders;
  let connections = 0;
  let logins = 0;
  const sockets = new Set<net.Socket>();

  const session = (socket: net.Socket) => {
    connections++;
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => undefined);
    let buffered = '';
    let authenticated = false;
    let selected: ImapTestFolder | undefined;
    const write = (data: string | Buffer) => socket.write(data);
    write('* OK [CAPABILITY IMAP4rev1] Homebody test IMAP ready\r\n');
    const uidOf = (folder: ImapTestFolder, index: number) => (folder.firstUid ?? 1) + index;

    const fetch = (tag: string, rest: string[], byUid: boolean) => {
      const folder = selected!;
      const [set, items = ''] = rest;
      const max = byUid ? uidOf(folder, folder.messages.length - 1) : folder.messages.length;
      folder.messages.forEach((message, index) => {
        const uid = uidOf(folder, index);
        if (!inSet(set!, byUid ? uid : index + 1, max)) return;
        const parts: Array<string | Buffer> = [`UID ${uid}`];
        if (/RFC822\.SIZE/i.test(items)) parts.push(` RFC822.SIZE ${message.length}`);
        if (/FLAGS/i.test(items)) parts.push(' FLAGS ()');
        const header = /BODY(?:\.PEEK)?\[HEADER\]/i.test(items);
        const whole = /BODY(?:\.PEEK)?\[\](?:<(\d+)\.(\d+)>)?/i.exec(items);
        if (header) {
          const bytes = headerOf(message);
          parts.push(` BODY[HEADER] {${bytes.length}}\r\n`, bytes);
        }
        if (whole) {
          const from = Number(whole[1] ?? 0);
          const bytes = message.subarray(from, whole[2] ? from + Number(whole[2]) : undefined);
          parts.push(` BODY[]${whole[1] ? `<${from}>` : ''} {${bytes.length}}\r\n`, bytes);
        }
        write(`* ${index + 1} FETCH (`);
        for (const part of parts) write(part);
        write(')\r\n');
      });
      write(`${tag} OK FETCH completed\r\n`);
    };

    const search = (tag: string, rest: string[], byUid: boolean) => {
      const folder = selected!;
      const words: string[] = [];
      rest.forEach((word, i) => {
        if (/^(FROM|SUBJECT)$/i.test(word) && rest[i + 1])
          words.push(`${word.toLowerCase()}:${rest[i + 1]!.toLowerCase()}`);
      });
      const found: number[] = [];
      folder.messages.forEach((message, index) => {
        const header = headerOf(message).toString('latin1').toLowerCase();
        const field = (name: string) => new RegExp(`^${name}:(.*)$`, 'm').exec(header)?.[1] ?? '';
        const hit =
          words.length === 0 ||
          words.some((w) => {
            const [name, value] = w.split(/:(.*)/s) as [string, string];
            return field(name).includes(value);
          });
        if (hit) found.push(byUid ? uidOf(folder, index) : index + 1);
      });
      write(`* SEARCH${found.map((n) => ` ${n}`).join('')}\r\n${tag} OK SEARCH completed\r\n`);
    };

    const command = (line: string) => {
      const [tag = '*', name = '', ...rest] = args(line);
      const verb = name.toUpperCase();
      const needsAuth = !['CAPABILITY', 'LOGIN', 'LOGOUT', 'NOOP'].includes(verb);
      if (needsAuth && !authenticated) return write(`${tag} NO Log in first\r\n`);
      switch (verb) {
        case 'CAPABILITY':
          return write(`* CAPABILITY IMAP4rev1\r\n${tag} OK CAPABILITY completed\r\n`);
        case 'NOOP':
          return write(`${tag} OK NOOP completed\r\n`);
        case 'LOGIN':
          logins++;
          if (rest[0] === options.user && rest[1] === options.password) {
            authenticated = true;
            return write(`${tag} OK [CAPABILITY IMAP4rev1] Logged in\r\n`);
          }
          return write(`${tag} NO [AUTHENTICATIONFAILED] Invalid credentials\r\n`);
        case 'LOGOUT':
          write(`* BYE Logging out\r\n${tag} OK LOGOUT completed\r\n`);
          return socket.end();
        case 'LIST':
        case 'LSUB':
          // LIST "" "": the hierarchy delimiter only (RFC 3501 6.3.8).
          if (rest[1] === '') return write(`* ${verb} (\\Noselect) "/" ""\r\n${tag} OK ${verb} completed\r\n`);
          for (const [path, folder] of Object.entries(folders)) {
            const flags = ['\\HasNoChildren', ...(folder.specialUse ? [folder.specialUse] : [])].join(' ');
            write(`* ${verb} (${flags}) "/" ${quote(path)}\r\n`);
          }
          return write(`${tag} OK ${verb} completed\r\n`);
        case 'STATUS': {
          const folder = folders[rest[0] ?? ''];
          if (!folder) return write(`${tag} NO [NONEXISTENT] No such mailbox\r\n`);
          const n = folder.messages.length;
          return write(
            `* STATUS ${quote(rest[0]!)} (MESSAGES ${n} UNSEEN 0 UIDNEXT ${uidOf(folder, n)} UIDVALIDITY ${folder.uidValidity})\r\n${tag} OK STATUS completed\r\n`,
          );
        }
        case 'SELECT':
        case 'EXAMINE': {
          const folder = folders[rest[0] ?? ''] ?? (rest[0]?.toUpperCase() === 'INBOX' ? folders.INBOX : undefined);
          if (!folder) {
            selected = undefined;
            return write(`${tag} NO [NONEXISTENT] Mailbox doesn't exist: ${rest[0]}\r\n`);
          }
          selected = folder;
          const n = folder.messages.length;
          return write(
            `* FLAGS (\\Seen \\Answered \\Flagged \\Deleted \\Draft)\r\n* ${n} EXISTS\r\n* 0 RECENT\r\n` +
              `* OK [UIDVALIDITY ${folder.uidValidity}] UIDs valid\r\n* OK [UIDNEXT ${uidOf(folder, n)}] Predicted next UID\r\n` +
              `${tag} OK [${verb === 'EXAMINE' ? 'READ-ONLY' : 'READ-WRITE'}] ${verb} completed\r\n`,
          );
        }
        case 'CLOSE':
        case 'UNSELECT':
          selected = undefined;
          return write(`${tag} OK ${verb} completed\r\n`);
        case 'FETCH':
        case 'SEARCH':
          if (!selected) return write(`${tag} BAD No mailbox selected\r\n`);
          return verb === 'FETCH' ? fetch(tag, rest, false) : search(tag, rest, false);
        case 'UID': {
          if (!selected) return write(`${tag} BAD No mailbox selected\r\n`);
          const sub = (rest[0] ?? '').toUpperCase();
          if (sub === 'FETCH') return fetch(tag, rest.slice(1), true);
          if (sub === 'SEARCH') return search(tag, rest.slice(1), true);
          return write(`${tag} BAD Unknown UID command\r\n`);
        }
        default:
          return write(`${tag} BAD Unknown command ${name}\r\n`);
      }
    };

    socket.on('data', (data: Buffer) => {
      buffered += data.toString('latin1');
      let end: number;
      while ((end = buffered.indexOf('\r\n')) >= 0) {
        const line = buffered.slice(0, end);
        buffered = buffered.slice(end + 2);
        command(line);
      }
    });
  };

  const server = options.tls
    ? tls.createServer({ key: options.tls.key, cert: options.tls.cert }, session)
    : net.createServer(session);
  server.on('tlsClientError', () => undefined);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as net.AddressInfo).port;
  return {
    port,
    folders,
    connections: () => connections,
    logins: () => logins,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
