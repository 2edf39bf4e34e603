import type {
  EgressFeature,
  ImapSettings,
  MailSource,
  PathRole,
  ProvenanceDeclaration,
  SmtpSettings,
  ToolTouches,
  UntrustedOutputDeclaration,
} from '../../src-shared/contract/index.js';

/**
 * What a tool is. The main process reads a tool's metadata and `describe()`
 * to decide and to ask; only the sandboxed tool worker ever calls `run()` or
 * `undo()`, on arguments the main process has already validated and allowed.
 */

/** The risk class decides what is asked, never the model (DESIGN.md, Actions, risk and decisions). */
export type Risk = 'read' | 'write' | 'irreversible';

export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };

/** A JSON Schema object (draft 2020-12 subset), as offered to the model and validated against. */
export type JsonSchema = { [key: string]: JsonValue };

/**
 * Which folder a grant is: its device and inode (decimal strings, since inodes can pass 2^53) when the user granted
 * it. A folder that another program moved away and replaced (or swapped for a link) has another identity, so the
 * grant no longer applies to whatever now sits at its path.
 */
export interface FolderIdentity {
  readonly dev: string;
  readonly ino: string;
}

/** A folder the user granted; `path` is already a realpath. */
export interface GrantedRoot {
  readonly path: string;
  /** Content from here did not come from the user (e.g. Downloads): reading it taints the task. */
  readonly untrusted: boolean;
  /** The folder's identity when granted; the worker refuses a root whose opened folder is not this one. */
  readonly identity?: FolderIdentity;
}

/**
 * What the packs are configured with, as the worker receives it for one call: folders are realpaths that exist,
 * and passwords are present only here, never in a view or a log.
 */
export interface PackConfig {
  readonly calendarDir: string;
  readonly contactsDir: string;
  readonly notesDir: string;
  readonly mailDir: string;
  /** The reminders file (JSON), which the Host also reads to raise notifications when they fall due. */
  readonly remindersFile: string;
  readonly mailSource: MailSource;
  readonly smtp: (SmtpSettings & { readonly password: string | null; readonly pinned?: PinnedCertificate }) | null;
  readonly imap: (ImapSettings & { readonly password: string | null; readonly pinned?: PinnedCertificate }) | null;
  readonly searchEndpoint: string | null;
  /** IANA zone; never empty here (the system's when the user chose none). */
  readonly timeZone: string;
  /** Offline mode is on: a tool that needs the network says so without trying. */
  readonly offline: boolean;
}

/**
 * The one certificate the user trusted for a mail server (Settings, after seeing it): the TLS layer accepts that
 * certificate and no other for the account, whatever the certificate authorities say.
 */
export interface PinnedCertificate {
  /** SHA-256 of the DER certificate, colon-separated upper-case hex. */
  readonly sha256: string;
  readonly pem: string;
}

/** Something only the app shell can do: the clipboard, opening a file or URL, a desktop notification. */
export type DeviceRequest =
  | { readonly kind: 'clipboard-read' }
  | { readonly kind: 'clipboard-write'; readonly text: string }
  | { readonly kind: 'open'; readonly target: string }
  | { readonly kind: 'notify'; readonly title: string; readonly body: string };

/** What the egress guard answers a tool it let through. */
export interface EgressGrant {
  /**
   * A rule names this exact host, so the web tools may reach it even where it resolves to this machine or the
   * local network; without one they refuse such an address.
   */
  readonly hostNamed: boolean;
}

/**
 * What the worker asks of the main process during a call. Every network connection a tool opens is asked for
 * first, naming the feature it is for, so the app's egress guard sees (and, offline, refuses) it.
 */
export interface ToolServices {
  /** Resolves when the guard allows `url` for `feature`; throws ToolError NETWORK_BLOCKED otherwise. */
  egress(url: string, feature: EgressFeature, purpose: string): Promise<EgressGrant>;
  device(request: DeviceRequest): Promise<JsonValue>;
}

export interface ToolContext {
  readonly roots: readonly GrantedRoot[];
  /** Where trashed files go, so that they can come back (inside the app's data folder). */
  readonly trashDir: string;
  /**
   * Folders no tool walks into, even inside a granted folder (Homebody's data folder: the database, the secret key).
   * The broker refuses paths there before a call is made; a search that walks a broad grant skips them.
   */
  readonly hidden?: readonly string[];
  readonly signal: AbortSignal;
  readonly packs: PackConfig;
  readonly services: ToolServices;
}

/** What the permission prompt shows: a title, a sentence in plain words, and the exact values. */
export interface ToolDescription {
  readonly title: string;
  readonly summary: string;
  readonly details: ReadonlyArray<{ readonly label: string; readonly value: string }>;
}

/** How to reverse a write; stored in the undo journal and replayed by the worker. */
export type UndoRecord =
  | { readonly kind: 'move-back'; readonly from: string; readonly to: string }
  | { readonly kind: 'restore-file'; readonly path: string; readonly backup: string }
  | { readonly kind: 'remove-created'; readonly path: string }
  | { readonly kind: 'untrash'; readonly trashed: string; readonly original: string };

export interface ToolOutcome {
  /** What the model is told; keep it short and factual. */
  readonly result: JsonValue;
  readonly undo?: UndoRecord;
  /** Set when the tool read content that did not come from the user; names it for later prompts. */
  readonly untrustedSource?: string;
}

/**
 * What people read about a tool (Settings, `homebody tools list`), apart from the description written for the model:
 * what it does for them, in their words, with no instructions, JSON or argument names.
 */
export interface ToolForPeople {
  /** A short name, e.g. "Copy to the clipboard". */
  readonly title: string;
  /** One sentence, e.g. "Puts text on the clipboard, for you to paste elsewhere." */
  readonly text: string;
}

export interface ToolDefinition<Args = Record<string, unknown>> {
  readonly name: string;
  /** What the model is told: how to use the tool, for a small model. People read `forPeople`. */
  readonly description: string;
  readonly parameters: JsonSchema;
  readonly risk: Risk;
  /** Its words for people; without them (a test's tool) people see its name and description. */
  readonly forPeople?: ToolForPeople;
  /**
   * What it acts on, so its badge says what it changes ("Changes your calendar", "Uses your device") and not only
   * its risk; absent where that is not known (a tool of an MCP server).
   */
  readonly touches?: ToolTouches;
  /**
   * Asked every time, whatever the policy or an earlier "allow for this task" says (e.g. opening a file or an
   * address: the user sees the exact target each time).
   */
  readonly alwaysAsk?: boolean;
  /**
   * What the call is given leaves the device (a URL requested, a query sent to a search service). Once the task has
   * read untrusted content such a call asks each time (unless the policy says auto), since injected text could
   * otherwise put what the task read into the address of a server it chose.
   */
  readonly reachesOut?: boolean;
  /**
   * The tool connects to other machines (mail servers, web pages, a search service). Only such tools run in the
   * sandbox profile that has the network; every other tool runs where no network exists.
   */
  readonly needsNetwork?: boolean;
  /**
   * Its path arguments and how it uses each: the broker resolves them before anyone is asked (the same resolution
   * the tool then uses), refuses one outside every granted folder, and shows the user the absolute path.
   */
  readonly pathArgs?: Readonly<Record<string, PathRole>>;
  /** Which of its outputs were written by others: after them, a change in the task asks (DESIGN.md, Taint). */
  readonly untrustedOutput?: UntrustedOutputDeclaration;
  /** What it reads and writes, so an untrusted label follows content from task to task. */
  readonly provenance?: ProvenanceDeclaration;
  describe(args: Args): ToolDescription;
  run(args: Args, context: ToolContext): Promise<ToolOutcome>;
  /**
   * One line for people about what a call did, from its result (the file created and where, the events found, the
   * mail sent to whom): shown on the call's card, with the raw result one click away. Runs in the main process on
   * the result the sandboxed tool returned, so it must not trust its shape: null when it cannot say.
   */
  summarize?(result: JsonValue, args: Args): string | null;
}

/** A built-in tool: it always has its words for people and says what it touches. */
export type BuiltinToolDefinition<Args = Record<string, unknown>> = ToolDefinition<Args> & {
  readonly forPeople: ToolForPeople;
  readonly touches: ToolTouches;
};

/** A refusal or failure a tool reports to the model as a clear sentence (not a crash). */
export class ToolError extends Error {
  constructor(
    readonly code:
      | 'OUTSIDE_GRANTED_FOLDERS'
      | 'NOT_FOUND'
      | 'ALREADY_EXISTS'
      | 'NOT_A_FILE'
      | 'NOT_A_FOLDER'
      | 'TOO_LARGE'
      | 'INVALID_PATH'
      | 'IO_ERROR'
      /** The input (a file's content, an argument's meaning) is not what the tool can use. */
      | 'INVALID_INPUT'
      /** Offline mode, or a host the egress guard refuses. */
      | 'NETWORK_BLOCKED'
      /** The tool needs a setting the user has not given (SMTP server, search endpoint). */
      | 'NOT_CONFIGURED'
      /** A server the tool talked to refused or failed (SMTP, IMAP, a web page, an MCP server). */
      | 'REMOTE_ERROR'
      /** This shell cannot do it (e.g. the clipboard in a browser without permission). */
      | 'UNAVAILABLE',
    message: string,
  ) {
    super(message);
    this.name = 'ToolError';
  }
}
