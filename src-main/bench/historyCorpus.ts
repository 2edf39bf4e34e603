import type { AuditEvent, ExportedTask, Message, ToolCall } from '../../src-shared/contract/index.js';
import { mulberry32 } from '../llm/synthetic/prng.js';

/**
 * A made-up but realistic history for the benchmark: tasks of alternating user and assistant messages whose
 * words follow a Zipf-like frequency over a vocabulary of a few thousand English words (plus people's names
 * and places), message lengths that vary like chat, a tool call (read_text, list_folder, search_files, with
 * paths) in about one task in three, and tasks spread over the last two years. The same seed gives the same
 * history; only the timestamps follow `now`.
 *
 * A few words that the vocabulary never uses are planted in known tasks (see PLANTED), so a search for one
 * of them must find exactly those tasks.
 */

/** The generated models' seeded PRNG (mulberry32): uniform output in [0, 1). */
export const seededRandom = mulberry32;

const words = (text: string): string[] => text.trim().split(/\s+/u);

/** The most frequent words of chat, most frequent first. */
const FUNCTION_WORDS = words(`
  the to and a i you of it is in that for this on with be can my me have what do are not at so if your we was
  but just will or from about an all there they would how like get one as up some here could out know by when
  need which more also then them want should any it's i'm don't can't let's these those no yes please thanks sure
  did has had were been their our us into over after before than too very really maybe again still only now today
  tomorrow yesterday next last new good great other each both few many much most every something anything nothing
  because while where why who first well make see go take look find use try send check think help put keep give
  tell say ask read write open move list two three four five half around until since though without between
`);

/** Everyday nouns, verbs and adjectives, roughly most frequent first. */
const COMMON_NOUNS = words(`
  file folder document photo picture email message meeting report note plan trip flight hotel booking ticket
  budget invoice receipt tax bill payment bank account password backup drive desktop download screenshot
  spreadsheet draft letter summary schedule calendar appointment deadline project task idea question answer problem
  issue error update version name date time week month year morning evening night weekend holiday vacation birthday
  party dinner lunch breakfast recipe grocery shopping order delivery package address phone number contact friend
  family mother father sister brother kid school class teacher homework exam course book chapter article story
  poem song music movie show game team player coach doctor dentist medicine health workout walk bike car train
  bus station airport road map route weather rain snow garden plant flower tree kitchen house apartment rent lease
  landlord repair paint wall window door room office desk chair computer laptop printer keyboard screen battery
  cable charger app website link server code script function database table column row chart graph slide
  presentation client customer manager colleague boss interview job resume salary contract insurance claim form
  application permit visa passport license renewal subscription price cost discount refund warranty store market
  restaurant cafe coffee tea wine beer cake bread cheese pasta salad soup chicken fish rice fruit apple orange
  banana lemon tomato potato onion garlic pepper salt sugar butter milk egg neighbor dog cat vet bag suitcase
  jacket shoe shirt gift card present wedding guest seat museum concert festival beach mountain lake river park
  trail city country language word sentence paragraph title heading image video camera album playlist podcast
  episode channel notification setting option feature button menu tab
`);
const COMMON_VERBS = words(`
  save delete rename sort search fix change add remove book cancel pay buy sell call reply print scan share upload
  compare organize clean cook bake visit travel meet remind translate summarize explain suggest recommend review
  edit format convert merge split archive restore install confirm follow finish start prepare pack return measure
  count calculate estimate describe improve rewrite shorten attach download rename collect invite plant water
  borrow lend fill sign submit renew remember forget arrive leave land stay rest sleep wake drink eat walk clean
`);
const COMMON_ADJECTIVES = words(`
  big small long short old quick simple important urgent easy hard cheap expensive free busy late early happy sorry
  nice clear full empty final recent monthly weekly annual personal private public local remote similar different
  correct wrong ready available missing extra total exact rough detailed brief formal casual friendly polite warm
  cold hot quiet loud bright dark fresh healthy spicy sweet safe useful careful tidy messy
`);

/** Less frequent words of everyday life and work: the middle of the distribution. */
const MID_WORDS = words(`
  agenda minutes proposal quote estimate forecast quarter revenue expense profit margin target goal milestone
  sprint ticket backlog release launch campaign survey feedback complaint request approval signature stamp
  envelope parcel courier locker pickup dropoff checkout cart coupon voucher loyalty membership gym yoga pilates
  swim tennis football soccer basketball hockey cycling marathon stretch injury knee ankle shoulder back headache
  fever cough cold flu allergy prescription pharmacy clinic hospital nurse surgeon therapy therapist counselor
  lawyer notary accountant advisor agent broker plumber electrician carpenter cleaner babysitter tutor mentor
  volunteer charity donation fundraiser auction raffle ceremony anniversary graduation reunion retirement
  funeral christening picnic barbecue brunch potluck buffet menu reservation waiter tip bill dessert snack
  sandwich burger pizza noodle curry taco burrito sushi kebab omelette pancake waffle muffin cookie brownie
  pie tart jam honey yogurt cereal oatmeal granola juice smoothie soda water bottle jar can box crate shelf
  drawer cupboard closet wardrobe mattress pillow blanket sheet towel curtain carpet rug lamp bulb socket
  switch fuse heater fan boiler pipe tap sink shower bath toilet mirror tile floor ceiling roof fence gate
  lawn hedge bush shed garage porch balcony terrace yard path hill valley forest field farm barn village town
  suburb downtown street avenue square bridge tunnel harbor port pier island coast bay cliff cave desert
  jungle island border customs embassy consulate ministry council court police firefighter ambulance
  emergency accident insurance deposit withdrawal transfer balance statement loan credit debit interest rate
  pension savings investment stock fund share dividend crypto wallet exchange currency euro dollar pound yen
  spreadsheet formula cell filter pivot macro template layout font margin border header footer footnote
  bibliography citation reference appendix index glossary outline thesis essay paper journal magazine newspaper
  headline column editor author publisher library librarian shelf catalog manuscript translation dictionary
`);

/** Real but rare words: the tail of the distribution, where a search finds a handful of tasks. */
const RARE_WORDS = words(`
  harpsichord marzipan origami sourdough kayak telescope lighthouse archipelago saxophone calligraphy pottery
  embroidery glacier volcano aquarium chandelier trombone mandolin croissant pistachio artichoke rhubarb cardamom
  saffron tarragon anchovy bonsai trellis gazebo hammock lantern compass sextant barometer thermostat dehumidifier
  espresso kombucha quinoa falafel tapas paella risotto gnocchi dumpling ravioli strudel tiramisu meringue soufflé
  mortgage escrow amortization deductible reimbursement notarized apostille itinerary layover stopover ferry
  catamaran snorkel scuba hiking trailhead campsite canyon fjord tundra savanna monsoon typhoon equinox solstice
  eclipse nebula asteroid comet orbit genealogy ancestry heirloom antique vinyl turntable amplifier subwoofer
  firmware router modem bluetooth thumbnail metadata checksum encryption changelog repository dependency regression
  latency throughput bandwidth watercolor charcoal easel sketchbook crochet knitting quilt sewing upholstery
  woodwork chisel sandpaper varnish plywood drywall grout caulk gutter chimney skylight attic basement driveway
  greenhouse compost mulch seedling tulip daffodil lavender rosemary basil cilantro fennel parsnip turnip kale
  zucchini eggplant avocado mango papaya guava lychee persimmon pomegranate apricot nectarine cranberry blueberry
  raspberry gooseberry elderflower hibiscus jasmine magnolia wisteria orchid cactus succulent fern moss lichen
  pelican flamingo penguin walrus otter beaver badger hedgehog squirrel chipmunk raccoon armadillo tortoise iguana
  salamander dragonfly firefly ladybug beetle cricket grasshopper butterfly caterpillar cocoon chrysalis
  stethoscope thermometer bandage ointment antihistamine ibuprofen vaccination physiotherapy orthodontist
  optometrist dermatologist pediatrician allergist cardiologist
`);

/** People's names and places: mentioned now and then, capitalized. */
export const NAMES = words(`
  Anna Ben Carlos Diana Elena Farid Grace Hiro Isabel James Kenji Laura Miguel Nadia Oliver Priya Quentin Rosa
  Samir Tomas Ursula Victor Wei Ximena Yusuf Zoe Maria John Sarah David Emma Lucas Sofia Noah Chloe Ahmed Fatima
  Ivan Olga Pedro Marco Giulia Hans Greta Lars Ingrid Pierre Camille Mateo Valentina Raj Ananya Chen Mei Kwame
  Amara Tariq Leila Dmitri Katya Sean Aoife Emil Freya Jonas Mila Theo Nora Felix Hugo Iris Leo Alma Ruben Selma
`);
export const PLACES = words(`
  Lisbon Porto Madrid Barcelona Seville Paris Lyon Marseille Berlin Munich Hamburg Vienna Prague Budapest Warsaw
  Krakow Rome Milan Naples Venice Florence Athens Istanbul London Edinburgh Dublin Amsterdam Rotterdam Brussels
  Copenhagen Oslo Stockholm Helsinki Reykjavik Zurich Geneva Tokyo Kyoto Osaka Seoul Beijing Shanghai Singapore
  Bangkok Hanoi Jakarta Manila Sydney Melbourne Auckland Toronto Vancouver Montreal Boston Chicago Seattle Denver
  Austin Miami Lima Bogota Santiago Nairobi Lagos Cairo Marrakesh Dubai Mumbai Delhi Bangalore Valencia Bilbao
  Granada Coimbra Faro Sintra Cascais Bordeaux Nice Toulouse Salzburg Ljubljana Zagreb Split Dubrovnik Tallinn Riga
`);

const O_ES = new Set(['tomato', 'potato', 'volcano', 'mango']);

/** Regular inflections, good enough to look real: plans, planned, planning; copies, copied. */
function inflect(stem: string, suffix: 's' | 'ed' | 'ing'): string {
  const consonantY = /[^aeiou]y$/u.test(stem);
  if (suffix === 's') {
    if (consonantY) return `${stem.slice(0, -1)}ies`;
    return /(s|x|z|ch|sh)$/u.test(stem) || O_ES.has(stem) ? `${stem}es` : `${stem}s`;
  }
  if (suffix === 'ed') {
    if (consonantY) return `${stem.slice(0, -1)}ied`;
    return stem.endsWith('e') ? `${stem}d` : `${stem}ed`;
  }
  if (stem.endsWith('e') && !stem.endsWith('ee')) return `${stem.slice(0, -1)}ing`;
  return `${stem}ing`;
}

/** The vocabulary, most frequent first: function words, everyday words, their inflections, then rare words. */
export function buildVocabulary(): string[] {
  const common: string[] = [];
  const inflected: string[] = [];
  const longest = Math.max(COMMON_NOUNS.length, COMMON_VERBS.length, COMMON_ADJECTIVES.length);
  for (let i = 0; i < longest; i++) {
    const noun = COMMON_NOUNS[i];
    const verb = COMMON_VERBS[i];
    const adjective = COMMON_ADJECTIVES[i];
    if (noun) {
      common.push(noun);
      inflected.push(inflect(noun, 's'));
    }
    if (verb) {
      common.push(verb);
      inflected.push(inflect(verb, 's'), inflect(verb, 'ed'), inflect(verb, 'ing'));
    }
    if (adjective) common.push(adjective);
  }
  const adverbs = COMMON_ADJECTIVES.filter((a) => a.length > 4).map((a) =>
    a.endsWith('y') ? `${a.slice(0, -1)}ily` : a.endsWith('le') ? `${a.slice(0, -1)}y` : `${a}ly`,
  );
  const mid = MID_WORDS.flatMap((w) => [w, inflect(w, 's')]);
  const rare = RARE_WORDS.flatMap((w) => [w, inflect(w, 's')]);
  const seen = new Set<string>();
  return [...FUNCTION_WORDS, ...common, ...inflected, ...adverbs, ...mid, ...rare].filter(
    (w) => !seen.has(w) && seen.add(w),
  );
}

/** Draws indexes 0..n-1 with weight 1/(rank + q)^s (Zipf-Mandelbrot), by binary search over the running sums. */
export function zipfSampler(n: number, random: () => number, s = 1, q = 2.7): () => number {
  const cumulative = new Float64Array(n);
  let sum = 0;
  for (let i = 0; i < n; i++) {
    sum += 1 / (i + 1 + q) ** s;
    cumulative[i] = sum;
  }
  return () => {
    const target = random() * sum;
    let lo = 0;
    let hi = n - 1;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (cumulative[mid]! < target) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };
}

/**
 * Words that the vocabulary never uses, put into known tasks: task i (0-based, oldest first) has the word when
 * i % every === offset, in the place named. A phrase is planted as its words, next to each other.
 */
export const PLANTED = [
  { word: 'quokka', every: 50, offset: 7, place: 'user' },
  { word: 'zeppelin', every: 100, offset: 42, place: 'assistant' },
  { word: 'marmalade', every: 60, offset: 5, place: 'toolResult' },
  { word: 'blue heron', every: 200, offset: 17, place: 'assistant' },
] as const;
export type PlantedWord = (typeof PLANTED)[number]['word'];

export interface CorpusOptions {
  readonly tasks: number;
  readonly messagesPerTask: number;
  readonly seed?: number;
  /** The newest task ends shortly before this; the oldest is about two years older. */
  readonly now: number;
}

export interface Corpus {
  /** Oldest first, as a real export has them. */
  readonly tasks: ExportedTask[];
  readonly messages: number;
  readonly toolCalls: number;
  /** Which task ids hold each planted word (or phrase). */
  readonly planted: Record<PlantedWord, string[]>;
}

const DAY_MS = 86_400_000;
const SPAN_MS = 730 * DAY_MS;
const HOME = '/home/sam';
const FOLDERS = ['Documents', 'Downloads', 'Desktop', 'Pictures', 'Notes', 'Projects', 'Music'];
const TEXT_EXTENSIONS = ['txt', 'md', 'csv'];
const OTHER_EXTENSIONS = ['pdf', 'docx', 'jpg', 'png', 'xlsx', 'zip'];
const USER_OPENERS = ['Could you', 'Can you', 'Please', 'I need to', 'Help me', 'What is', 'How do I', 'Remind me to'];
const ASSISTANT_OPENERS = ['Sure,', 'Here is', 'I found', 'Done:', 'Of course.', 'Good question.', 'Okay,'];
const ASSISTANT_CLOSERS = ['Let me know if you want changes.', 'Want me to do anything else?', 'Thank you!'];
const USER_CLOSERS = ['Thank you!', 'Thanks.', 'Let me know.', 'No rush.'];

/** Makes the corpus. Deterministic for a seed and `now`. */
export function generateCorpus(options: CorpusOptions): Corpus {
  const { tasks: taskCount, messagesPerTask, now } = options;
  const random = seededRandom(options.seed ?? 20_240_601);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
  const chance = (p: number) => random() < p;
  const between = (lo: number, hi: number) => lo + Math.floor(random() * (hi - lo + 1));
  const normal = () => Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());
  const uuid = () => {
    const hex = Array.from({ length: 32 }, () => Math.floor(random() * 16).toString(16));
    hex[12] = '4';
    hex[16] = '89ab'[Math.floor(random() * 4)]!;
    const h = hex.join('');
    return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
  };

  const vocabulary = buildVocabulary();
  const nextWord = zipfSampler(vocabulary.length, random);
  const nextName = zipfSampler(NAMES.length, random, 0.8);
  const nextPlace = zipfSampler(PLACES.length, random, 0.8);
  const nouns = COMMON_NOUNS;

  /** Chat lengths are skewed: mostly short, a long one now and then; 5 to 110 words before an opener or closer. */
  const length = (median: number) => Math.max(5, Math.min(110, Math.round(median * Math.exp(0.6 * normal()))));
  const fileName = (text: boolean) =>
    `${pick(nouns)}-${chance(0.5) ? between(2019, 2025) : pick(nouns)}.${pick(text ? TEXT_EXTENSIONS : OTHER_EXTENSIONS)}`;
  const folderPath = () => `${HOME}/${pick(FOLDERS)}${chance(0.6) ? `/${pick(nouns)}` : ''}`;
  const token = (): string => {
    const r = random();
    if (r < 0.025) return NAMES[nextName()]!;
    if (r < 0.04) return PLACES[nextPlace()]!;
    if (r < 0.055)
      return pick([`${between(1, 99)}`, `${between(1, 12)}pm`, `${between(2015, 2026)}`, `$${between(5, 900)}`]);
    if (r < 0.058) return `${folderPath()}/${fileName(chance(0.5))}`;
    // Order, invoice and booking references: the long tail of tokens seen once or twice.
    if (r < 0.061) return `${pick(['#', 'INV-', 'REF-', 'order '])}${between(10_000, 99_999)}`;
    return vocabulary[nextWord()]!;
  };
  /** Sentences of 4 to 16 words, capitalized and punctuated, until `count` words are written. */
  const prose = (count: number, question = false): string[] => {
    const sentences: string[] = [];
    let left = count;
    while (left > 0) {
      const n = Math.min(left, between(4, 16));
      const ws = Array.from({ length: n }, token);
      ws[0] = ws[0]!.charAt(0).toUpperCase() + ws[0]!.slice(1);
      if (n > 7 && chance(0.3)) ws[between(2, n - 3)] += ',';
      sentences.push(`${ws.join(' ').replace(/\bi\b/gu, 'I')}${question && chance(0.5) ? '?' : '.'}`);
      left -= n;
    }
    return sentences;
  };
  const userText = (count: number) => {
    const body = prose(count, true);
    const opener = pick(USER_OPENERS);
    return [`${opener} ${body.join(' ').replace(/^\S/u, (c) => c.toLowerCase())}`]
      .concat(chance(0.2) ? [pick(USER_CLOSERS)] : [])
      .join(' ');
  };
  const assistantText = (count: number) => {
    const body = prose(count);
    body[0] = body[0]!.replace(/^\S/u, (c) => c.toLowerCase());
    const opener = pick(ASSISTANT_OPENERS);
    const closer = chance(0.3) ? `\n\n${pick(ASSISTANT_CLOSERS)}` : '';
    // Longer replies are often lists.
    if (body.length >= 4 && chance(0.35)) {
      const [first, ...rest] = body;
      return `${opener} ${first}\n\n${rest.map((s) => `- ${s}`).join('\n')}${closer}`;
    }
    return `${opener} ${body.join(' ')}${closer}`;
  };

  const planted = Object.fromEntries(PLANTED.map((p) => [p.word, [] as string[]])) as Record<PlantedWord, string[]>;
  const plantedIn = (index: number, place: string) =>
    PLANTED.filter((p) => index % p.every === p.offset && p.place === place).map((p) => p.word);
  /** Puts the words into the text at a word boundary after its first word. */
  const plant = (text: string, extra: readonly string[]) => {
    if (!extra.length) return text;
    const parts = text.split(' ');
    const at = Math.min(parts.length, 1 + Math.floor(random() * parts.length));
    parts.splice(at, 0, ...extra);
    return parts.join(' ');
  };

  const tasks: ExportedTask[] = [];
  let messageTotal = 0;
  let callTotal = 0;
  // Start times spread over the span, sorted so the export is oldest first; a little denser recently.
  const starts = Array.from({ length: taskCount }, () => now - SPAN_MS * random() ** 1.3 - DAY_MS / 24).sort(
    (a, b) => a - b,
  );

  for (let i = 0; i < taskCount; i++) {
    const taskId = uuid();
    let at = Math.floor(starts[i]!);
    const createdAt = at;
    const messages: Message[] = [];
    const toolCalls: ToolCall[] = [];
    const audit: Array<Omit<AuditEvent, 'id'>> = [];
    const callResultWords = plantedIn(i, 'toolResult');
    // About one task in three calls a tool, after its first question.
    const withCall = callResultWords.length > 0 || chance(0.3);
    const placed = new Set<string>(withCall ? callResultWords : []);

    for (let seq = 0; seq < messagesPerTask; seq++) {
      const role = seq % 2 === 0 ? 'user' : 'assistant';
      let text = role === 'user' ? userText(length(12)) : assistantText(length(40));
      // Each planted word goes into one message of its task: the first question, or the first reply.
      if (seq < 2) {
        const extra = plantedIn(i, role);
        text = plant(
          text,
          extra.flatMap((w) => w.split(' ')),
        );
        for (const w of extra) placed.add(w);
      }
      at += role === 'user' ? between(20_000, 3_600_000) : between(1_500, 40_000);
      messages.push({
        id: uuid(),
        taskId,
        seq,
        role,
        text,
        reasoning: '',
        state: role === 'assistant' && chance(0.02) ? 'stopped' : 'complete',
        createdAt: at,
        stats:
          role === 'assistant'
            ? {
                promptTokens: between(80, 4000),
                completionTokens: Math.round(text.length / 4),
                ttftMs: between(120, 1500),
                tokensPerSecond: 10 + random() * 40,
              }
            : null,
        error: null,
      });

      if (withCall && seq === 0) {
        const callAt = at + between(800, 5_000);
        const call = makeCall(taskId, callAt, callResultWords);
        toolCalls.push(call);
        audit.push(
          {
            at: callAt,
            taskId,
            callId: call.id,
            kind: 'proposed',
            actor: 'model',
            summary: `The model proposed ${call.description.title}`,
            detail: { tool: call.tool, args: call.args, gate: 'none' },
            basis: null,
            paths: [],
          },
          {
            at: callAt,
            taskId,
            callId: call.id,
            kind: 'decided',
            actor: 'policy',
            summary: 'Allowed by the policy',
            detail: null,
            basis: null,
            paths: [],
          },
          {
            at: callAt + 40,
            taskId,
            callId: call.id,
            kind: 'finished',
            actor: 'system',
            summary: `${call.description.title}: done`,
            detail: { durationMs: 40 },
            basis: null,
            paths: [],
          },
        );
        at = callAt + 50;
      }
    }
    for (const p of PLANTED) if (placed.has(p.word)) planted[p.word].push(taskId);

    const first = messages[0]?.text ?? 'New task';
    const line = first.split('\n', 1)[0]!;
    tasks.push({
      task: {
        id: taskId,
        title: line.length > 60 ? `${line.slice(0, 59).trimEnd()}…` : line,
        status: chance(0.03) ? 'stopped' : chance(0.01) ? 'failed' : 'completed',
        createdAt,
        updatedAt: at,
      },
      messages,
      toolCalls,
      audit,
    });
    messageTotal += messages.length;
    callTotal += toolCalls.length;
  }
  return { tasks, messages: messageTotal, toolCalls: callTotal, planted };

  function makeCall(taskId: string, at: number, resultWords: readonly string[]): ToolCall {
    const r = random();
    const tool = resultWords.length > 0 || r < 0.45 ? 'read_text' : r < 0.8 ? 'list_folder' : 'search_files';
    let args: Record<string, unknown>;
    let result: unknown;
    let title: string;
    let summary: string;
    let details: Array<{ label: string; value: string }>;
    if (tool === 'read_text') {
      const path = `${folderPath()}/${fileName(true)}`;
      const content = plant(prose(between(20, 150)).join(chance(0.5) ? '\n' : ' '), resultWords);
      args = { path };
      result = { path, size: content.length, content };
      title = 'Read a file';
      summary = `Read the text of ${path}.`;
      details = [{ label: 'File', value: path }];
    } else if (tool === 'list_folder') {
      const folder = folderPath();
      const entries = Array.from({ length: between(3, 25) }, () => {
        const isFolder = chance(0.2);
        return isFolder
          ? { name: pick(nouns), kind: 'folder', modified: new Date(at - between(0, SPAN_MS)).toISOString() }
          : {
              name: fileName(chance(0.5)),
              kind: 'file',
              size: between(200, 5_000_000),
              modified: new Date(at - between(0, SPAN_MS)).toISOString(),
            };
      });
      args = { path: folder };
      result = { folder, total: entries.length, entries };
      title = 'List a folder';
      summary = `See the names, sizes and dates of what is in ${folder}.`;
      details = [{ label: 'Folder', value: folder }];
    } else {
      const folder = folderPath();
      const name = `*.${pick([...TEXT_EXTENSIONS, ...OTHER_EXTENSIONS])}`;
      args = { folder, name };
      result = {
        folder,
        matches: Array.from({ length: between(0, 12) }, () => ({
          path: `${folder}/${fileName(chance(0.5))}`,
          kind: 'file',
          size: between(200, 900_000),
        })),
      };
      title = 'Find files';
      summary = `Find files named ${name} under ${folder}.`;
      details = [
        { label: 'Folder', value: folder },
        { label: 'Name', value: name },
      ];
    }
    return {
      id: uuid(),
      taskId,
      tool,
      args,
      description: { title, summary, details },
      risk: 'read',
      gate: 'none',
      state: 'done',
      decision: 'auto',
      decidedBy: 'policy',
      reason: null,
      taint: [],
      paths: [],
      basis: null,
      result,
      resultSummary: null,
      error: null,
      undo: null,
      createdAt: at,
      decidedAt: at,
      startedAt: at,
      finishedAt: at + 40,
    };
  }
}
