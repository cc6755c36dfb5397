/**
 * bun run docs:examples: sends the OpenAPI document's example requests through the app (real
 * detector, in-memory database, default configuration) and writes what it answered to
 * src/modules/docs/examples.json, which the document reads. Run it after retraining the model
 * or changing a message; test/docs/examples.test.ts fails while the committed file is stale.
 */
import { createApp } from '../src/app';
import { TRY_TEXT } from '../src/cli/console';
import type { Limits } from '../src/modules/limits/model';
import type { Usage } from '../src/modules/usage/model';
import { DOC_ANSWERS, fillAnswers } from './lib/doc-answers';
import { humanTexts } from './lib/human-texts';
import type { CalibrationView } from '../src/modules/calibrations/model';
import { aiNotes, humanNotes } from './lib/calibration-texts';
import { spanishAiNotes } from './lib/spanish-notes';
import { MAX_CALIBRATION_TEXTS, MAX_CALIBRATIONS_PER_KEY } from '../src/modules/calibrations/model';
import { loadConfig } from '../src/config';
import { createDetector } from '../src/detector';
import type { Detector } from '../src/detector/types';
import type { ErrorBody, ErrorCode } from '../src/http/errors';
import type { BatchLine } from '../src/modules/batch/model';
import type { DetectExamples, ErrorExample } from '../src/modules/docs/examples';
import type { DetectResponse } from '../src/modules/detect/model';
import { createKey, findActiveKey } from '../src/modules/keys';
import { chargeWords, createHolds } from '../src/modules/quota';
import { PLANS, type PlanId } from '../src/plans';
import { StoreUnavailableError } from '../src/store/errors';
import { openSqliteStore } from '../src/store/sqlite';
import type { Store } from '../src/store/types';

/** Where the examples are committed. */
export const EXAMPLES_PATH = new URL('../src/modules/docs/examples.json', import.meta.url).pathname;

/** The single-mode example (150+ words, where a conservative verdict can be AI): stock phrases and transitions, typical of generated prose. */
const ESSAY =
  'In today’s fast-paced world, it is important to note that technology plays a crucial role in our daily lives. ' +
  'Moreover, it offers numerous benefits that enhance productivity and foster innovation across many industries. ' +
  'Furthermore, by leveraging these tools, organizations can streamline their operations and unlock new opportunities. ' +
  'Additionally, educators must adopt comprehensive strategies to ensure that every student benefits from these transformative resources. ' +
  'However, it is essential to strike a balance between screen time and meaningful human interaction. ' +
  'In conclusion, embracing this transformation responsibly is essential for long-term success in a competitive landscape, ' +
  'and it will pave the way for a more inclusive and dynamic society for everyone.\n\n' +
  'Furthermore, schools play a pivotal role in this journey. By fostering digital literacy, they empower students to navigate ' +
  'an ever-evolving landscape with confidence. Moreover, teachers who leverage innovative tools can create engaging and ' +
  'personalized learning experiences that cater to a wide range of needs. Ultimately, a holistic approach that combines ' +
  'technology with meaningful human connection will ensure that every learner can thrive in the years to come.';

/** A batch file a person plausibly wrote: specific, uneven, first person. */
const TRIP_NOTES = `# Saturday ride

ok so the ride. Left at 7:40 cos the back tyre was flat AGAIN, patched it on the kitchen floor while the
kettle boiled. Canal path to Hebden Bridge, 14 miles-ish, wind was brutal past the locks and I nearly
packed it in. Beans on toast at the cafe by the bridge + a flapjack I really didn't need lol. Came back
on the road, quicker but the lorries scared the life out of me. Next time: bring the spare tube. The
GOOD one, not the one with the slow leak, you idiot.
`;

/** The first bytes of a PNG: a format batch mode does not read. */
const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52]);

/** `n` words of plain text (20 words per sentence). */
function wordsOf(n: number): string {
  const words = Array.from({ length: n }, (_, i) => (i % 20 === 19 ? 'end.' : 'word'));
  return words.join(' ');
}

/** The same store, but its quota charges fail the way a locked SQLite file does past STORE_TIMEOUT_MS. */
function lockedStore(store: Store): Store {
  const charge = async () => {
    throw new StoreUnavailableError('SQLITE_BUSY');
  };
  return Object.assign(Object.create(store) as Store, { quota: { ...store.quota, charge } });
}

/** A detector that fails every analysis: the only way a client sees `internal_error`. */
function failingDetector(real: Detector): Detector {
  return {
    countWords: (text) => real.countWords(text),
    profileSample: (text) => real.profileSample(text),
    analyze() {
      throw new Error('docs example: a failure inside the analysis');
    },
  };
}

/** A detector whose analysis stalls the process for `ms` (a GC or VM pause, swap): past a charge's lease. */
function stallingDetector(real: Detector, ms: number): Detector {
  return {
    countWords: (text) => real.countWords(text),
    profileSample: (text) => real.profileSample(text),
    analyze(text, options) {
      Bun.sleepSync(ms);
      return real.analyze(text, options);
    },
  };
}

/**
 * A detector that scores calibration texts `ms` slower each (a slow or busy machine): the timeout
 * example must not race the budget. With the real speed, 3,000 short texts took 88-140 ms warm on
 * 2 cores, against a 100 ms budget, so a quick run made the profile (201) instead (issue 39).
 */
function slowScoringDetector(real: Detector, ms: number): Detector {
  return {
    countWords: (text) => real.countWords(text),
    analyze: (text, options) => real.analyze(text, options),
    profileSample(text) {
      Bun.sleepSync(ms);
      return real.profileSample(text);
    },
  };
}

interface Sent {
  status: number;
  body: unknown;
  text: string;
}

/** Generates every example by sending real requests; deterministic except ms_cost, quota dates and rates. */
export async function generateExamples(): Promise<DetectExamples> {
  const detector = await createDetector();
  const config = loadConfig({ DATABASE_PATH: ':memory:', BOOTSTRAP_KEY: '0' });
  const store = openSqliteStore(':memory:', { timeoutMs: config.storeTimeoutMs });
  const app = createApp({ config, store, detector });
  const broken = createApp({ config, store, detector: failingDetector(detector) });
  const locked = createApp({ config, store: lockedStore(store), detector });
  // Holds with the shortest lease, and an analysis that outlasts it.
  const shortHolds = createHolds({ quota: store.quota, ledger: store.ledger, onEvent: () => {}, background: false, leaseMs: 300 });
  const stalled = createApp({ config, store, detector: stallingDetector(detector, 400), holds: shortHolds });
  // Its time budget (the minimum) runs out while a large calibration set is scored: calibration_timeout.
  // Scoring 3,000 texts takes at least 3 s there (1 ms each), whatever the machine: never within 100 ms.
  const hurriedConfig = loadConfig({ DATABASE_PATH: ':memory:', BOOTSTRAP_KEY: '0', BATCH_TIME_BUDGET_MS: '100' });
  const hurriedApp = createApp({ config: hurriedConfig, store, detector: slowScoringDetector(detector, 1) });
  // A duplicate waits this long for a first request still running (held below), then gets 409.
  const impatient = createApp({ config, store, detector, idempotencyWaitMs: 50 });
  const keyOf = async (plan: PlanId = 'free') => (await createKey(store.keys, { plan })).key;

  async function send(
    path: string,
    init: { method?: string; key?: string; json?: unknown; body?: BodyInit; type?: string; idempotencyKey?: string },
    target = app,
  ): Promise<Sent> {
    const headers: Record<string, string> = {};
    if (init.key) headers['x-api-key'] = init.key;
    if (init.idempotencyKey !== undefined) headers['idempotency-key'] = init.idempotencyKey;
    let body = init.body;
    if (init.json !== undefined) body = JSON.stringify(init.json);
    if (init.type) headers['content-type'] = init.type;
    else if (init.json !== undefined) headers['content-type'] = 'application/json';
    const method = init.method ?? (body === undefined ? 'GET' : 'POST');
    const response = await target.handle(new Request(`http://localhost${path}`, { method, headers, body }));
    const text = await response.text();
    let parsed: unknown = null;
    try {
      parsed = JSON.parse(text);
    } catch {
      // NDJSON: parsed line by line by the caller.
    }
    return { status: response.status, body: parsed, text };
  }

  const errors: Partial<Record<ErrorCode, ErrorExample>> = {};
  async function error(request: string, sent: Promise<Sent>): Promise<void> {
    const { status, body, text } = await sent;
    // Said plainly: an example that answered something else was a TypeError on body.error (issue 39).
    if (status < 400 || !(body as ErrorBody | null)?.error) {
      throw new Error(`docs:examples: "${request}" answered ${status}, not an error: ${text.slice(0, 200)}`);
    }
    const code = (body as ErrorBody).error.code as ErrorCode;
    if (errors[code]) throw new Error(`docs:examples: two examples answered ${code}`);
    errors[code] = { request, status, body: body as ErrorBody };
  }

  const key = await keyOf();
  const single = { text: ESSAY, sensitivity: 'conservative' };
  // Warm the engine first, so the example's ms_cost is a steady-state time, not the JIT's first run.
  for (let i = 0; i < 20; i++) detector.analyze(ESSAY);
  const ok = await send('/v1/detect', { key, json: single });
  if (ok.status !== 200) throw new Error(`docs:examples: the single example answered ${ok.status}: ${ok.text}`);

  const trialKey = await keyOf('trial');
  const readme = await send('/v1/detect', { key: trialKey, json: { text: TRY_TEXT } });
  if (readme.status !== 200) throw new Error(`docs:examples: the README example answered ${readme.status}: ${readme.text}`);
  const usage = await send('/v1/usage', { key: trialKey });
  if (usage.status !== 200) throw new Error(`docs:examples: GET /v1/usage answered ${usage.status}: ${usage.text}`);

  const limits = await send('/v1/limits', { key: await keyOf() });
  if (limits.status !== 200) throw new Error(`docs:examples: GET /v1/limits answered ${limits.status}: ${limits.text}`);

  const form = new FormData();
  form.append('files[]', new File([ESSAY], 'essay.txt'));
  form.append('files[]', new File([TRIP_NOTES], 'saturday-ride.md'));
  form.append('files[]', new File([PNG], 'photo.png'));
  const batch = await send('/v1/detect', { key: await keyOf(), body: form });
  if (batch.status !== 200) throw new Error(`docs:examples: the batch example answered ${batch.status}: ${batch.text}`);
  const lines = batch.text
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as BatchLine);

  const tooMany = new FormData();
  for (let i = 0; i <= config.maxFiles; i++) tooMany.append('files[]', new File([ESSAY], `essay-${i + 1}.txt`));
  const noFiles = new FormData();
  noFiles.append('sensitivity', 'balanced');

  await error('POST /v1/detect without X-API-Key', send('/v1/detect', { json: single }));
  await error('POST /v1/detect with X-API-Key: ak_unknown', send('/v1/detect', { key: 'ak_unknown', json: single }));
  await error(
    'POST /v1/detect with the body {"text": "Hello',
    send('/v1/detect', { key, body: '{"text": "Hello', type: 'application/json' }),
  );
  await error('POST /v1/detect with a multipart body and no files[] part', send('/v1/detect', { key, body: noFiles }));
  await error('POST /v1/detect {"sensitivity": "balanced"}', send('/v1/detect', { key, json: { sensitivity: 'balanced' } }));
  await error('POST /v1/detect {"text": "Too short to judge."}', send('/v1/detect', { key, json: { text: 'Too short to judge.' } }));
  await error(
    'POST /v1/detect {"text": …, "sensitivity": "paranoid"}',
    send('/v1/detect', { key, json: { text: ESSAY, sensitivity: 'paranoid' } }),
  );
  await error('GET /api/nothing', send('/api/nothing', {}));
  await error('GET /v1/detect', send('/v1/detect', { key }));
  await error(
    `POST /v1/detect with a JSON body over MAX_BODY_BYTES (${config.maxBodyBytes} bytes)`,
    send('/v1/detect', { key, json: { text: 'x'.repeat(config.maxBodyBytes) } }),
  );
  const tooLong = 'word '.repeat(Math.floor(config.maxTextChars / 5) + 1);
  await error(
    `POST /v1/detect with a text of ${tooLong.length.toLocaleString('en')} characters ("word word …")`,
    send('/v1/detect', { key, json: { text: tooLong } }),
  );
  await error(
    'POST /v1/detect {"text": "Go. Go. Go. …"} (30,000 sentences of 2 letters)',
    send('/v1/detect', { key, json: { text: 'Go. '.repeat(30_000) } }),
  );
  await error(`POST /v1/detect with ${config.maxFiles + 1} files`, send('/v1/detect', { key, body: tooMany }));
  await error('POST /v1/detect with Content-Type: text/plain', send('/v1/detect', { key, body: ESSAY, type: 'text/plain' }));
  await error(
    'POST /v1/detect with 10,001 words on a fresh free key',
    send('/v1/detect', { key: await keyOf(), json: { text: wordsOf(10_001) } }),
  );
  const nearlySpent = await keyOf();
  await send('/v1/detect', { key: nearlySpent, json: { text: wordsOf(9_990) } });
  await error(
    'POST /v1/detect with 20 words on a free key with 10 words left this month',
    send('/v1/detect', { key: nearlySpent, json: { text: wordsOf(20) } }),
  );
  const trial = await keyOf('trial');
  // 499 calls charged straight to the store (the trial plan's request rate would refuse them at HTTP speed), then the 500th.
  const trialRow = await findActiveKey(store.keys, trial);
  if (!trialRow) throw new Error('docs:examples: the trial key vanished');
  for (let i = 0; i < 499; i++) await chargeWords(store.quota, trialRow, 20);
  const last = await send('/v1/detect', { key: trial, json: { text: wordsOf(20) } });
  if (last.status !== 200) throw new Error(`docs:examples: the 500th trial call answered ${last.status}: ${last.text}`);
  await error('POST /v1/detect with a trial key after its 500 calls', send('/v1/detect', { key: trial, json: { text: wordsOf(20) } }));
  const hurried = await keyOf();
  // Detections: usage and limits have a budget of their own (issue 32).
  const detectOnce = () => send('/v1/detect', { key: hurried, json: { text: wordsOf(20) } });
  const burst = await Promise.all(Array.from({ length: PLANS.free.requestsPerMinute }, detectOnce));
  if (burst.some((sent) => sent.status !== 200)) throw new Error('docs:examples: a request of the free burst was refused');
  await error(`POST /v1/detect: the ${PLANS.free.requestsPerMinute + 1}st detection of a free key within a second`, detectOnce());
  await error('POST /v1/detect when the analysis fails', send('/v1/detect', { key, json: single }, broken));
  await error('POST /v1/detect while another process holds the database write lock', send('/v1/detect', { key, json: single }, locked));
  await error(
    'POST /v1/detect while the server process stalls (a pause, swap) past the lease of its charge',
    send('/v1/detect', { key, json: single }, stalled),
  );
  await error('POST /v1/detect with Idempotency-Key: "two words"', send('/v1/detect', { key, json: single, idempotencyKey: 'two words' }));
  const idempotencyKey = '7f3c2a9e-5b1d-4c8e-9a6f-0d2b4e6f8a1c';
  await send('/v1/detect', { key, json: single, idempotencyKey });
  await error(
    'POST /v1/detect with an Idempotency-Key already used with another text',
    send('/v1/detect', { key, json: { text: `${ESSAY} One more sentence.` }, idempotencyKey }),
  );
  // The first request of this key still running: its record held as pending.
  const held = 'b2d4f6a8-1c3e-4a5b-8d7f-9e0a1b2c3d4e';
  await send('/v1/detect', { key, json: single, idempotencyKey: held });
  store.db.$client.exec("UPDATE idempotency_records SET state = 'pending', answer = NULL");
  await error(
    'POST /v1/detect with an Idempotency-Key whose first request is still running',
    send('/v1/detect', { key, json: single, idempotencyKey: held }, impatient),
  );
  // Calibration profiles (issues 34 and 38): one made from 150 known-human diary notes and 80 AI examples of
  // the same register (adapted), and the errors of the routes.
  const calibrationKey = await keyOf('enterprise');
  const calibration = await send('/v1/calibrations', {
    key: calibrationKey,
    json: { name: 'Staff notes 2019-2021', texts: humanNotes(150), aiTexts: aiNotes(80) },
  });
  if (calibration.status !== 201)
    throw new Error(`docs:examples: POST /v1/calibrations answered ${calibration.status}: ${calibration.text}`);
  await error('GET /v1/calibrations/cal_123', send('/v1/calibrations/cal_123', { key: calibrationKey }));
  await error(
    'POST /v1/detect {"text": …, "calibration": "cal_0000000000000000000000"} (no such profile for this key)',
    send('/v1/detect', { key, json: { text: ESSAY, calibration: 'cal_0000000000000000000000' } }),
  );
  await error(
    'POST /v1/calibrations {"name": "Essays", "texts": [30 texts]}',
    send('/v1/calibrations', { key: calibrationKey, json: { name: 'Essays', texts: humanTexts(30) } }),
  );
  await error(
    'POST /v1/calibrations {"name": "Essays", "texts": ["Too short."]}',
    send('/v1/calibrations', { key: calibrationKey, json: { name: 'Essays', texts: ['Too short.'] } }),
  );
  await error(
    'POST /v1/calibrations {"name": "Essays", "texts": [150 English texts], "aiTexts": [60 Spanish texts]}',
    send('/v1/calibrations', {
      key: calibrationKey,
      json: { name: 'Essays', texts: humanTexts(150), aiTexts: spanishAiNotes(60) },
    }),
  );
  await error(
    `POST /v1/calibrations with ${MAX_CALIBRATION_TEXTS + 1} texts`,
    send('/v1/calibrations', {
      key: calibrationKey,
      json: { name: 'Essays', texts: Array.from({ length: MAX_CALIBRATION_TEXTS + 1 }, () => 'x') },
    }),
  );
  await error(
    'POST /v1/calibrations with 3,000 texts on a server with BATCH_TIME_BUDGET_MS=100',
    send('/v1/calibrations', { key: calibrationKey, json: { name: 'Archive', texts: humanTexts(3000, 2) } }, hurriedApp),
  );
  const fullSecret = await keyOf('enterprise');
  const fullKey = await findActiveKey(store.keys, fullSecret);
  if (!fullKey) throw new Error('docs:examples: the key vanished');
  const stored = JSON.parse(calibration.text) as CalibrationView;
  for (let i = 0; i < MAX_CALIBRATIONS_PER_KEY; i++) {
    const id = `cal_${String(i).padStart(22, '0')}`;
    await store.calibrations.insert({
      id,
      keyId: fullKey.id,
      name: stored.name,
      modelVersion: stored.modelVersion,
      createdAt: 0,
      summary: '{}',
      profile: '{}',
    });
  }
  await error(
    `POST /v1/calibrations with a key that keeps ${MAX_CALIBRATIONS_PER_KEY} profiles`,
    send('/v1/calibrations', { key: fullSecret, json: { name: 'One more', texts: humanTexts(60) } }),
  );
  // Those rows hold "{}": a detection naming one is refused, as for any stored profile that fails its checks (issue 44).
  await error(
    'POST /v1/detect {"text": …, "calibration": "cal_0000000000000000000000"} (its stored row is not a valid profile)',
    send('/v1/detect', { key: fullSecret, json: { text: ESSAY, calibration: 'cal_0000000000000000000000' } }),
  );
  await store.close();

  return {
    $comment: 'Generated by `bun run docs:examples` (scripts/docs-examples.ts) from real responses; do not edit.',
    single: { request: single, response: ok.body as DetectResponse },
    readme: { request: { text: TRY_TEXT }, response: readme.body as DetectResponse },
    usage: usage.body as Usage,
    limits: limits.body as Limits,
    batch: { files: ['essay.txt', 'saturday-ride.md', 'photo.png'], lines },
    errors,
    calibration: calibration.body as CalibrationView,
  };
}

if (import.meta.main) {
  const examples = await generateExamples();
  await Bun.write(EXAMPLES_PATH, `${JSON.stringify(examples, null, 2)}\n`);
  // The answers the documentation shows are these examples too (scripts/lib/doc-answers.ts).
  for (const file of Object.keys(DOC_ANSWERS)) {
    const path = new URL(`../${file}`, import.meta.url).pathname;
    await Bun.write(path, fillAnswers(file, await Bun.file(path).text(), examples));
  }
  console.log(
    `docs:examples: wrote ${EXAMPLES_PATH} (${Object.keys(examples.errors).length} error codes, ${examples.batch.lines.length} batch lines)`,
  );
}
