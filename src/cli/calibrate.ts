/**
 * The `calibrate` subcommand (issues 34 and 38): a calibration profile from an operator's own
 * known-human texts and, optionally, its own AI examples, offline. Reads JSON lines `{"text": ...,
 * "label"?: "human" | "ai"}` on stdin and/or TXT/MD/DOCX/PDF files and folders given as arguments
 * (human) or after `--ai` (AI examples), with the extraction limits of `detect` and the API; scores each
 * distinct text once and keeps its score only (never a word of it: nothing is written but the profile),
 * then writes the profile (--out) and prints one JSON summary. Exits 1 with a message when a language has
 * too few usable texts, AI examples but no human text, or a line's label is neither "human" nor "ai" or
 * it has another key (naming the line), or a path does not exist (issue 45). A line too long for any
 * text is refused while it is read, with bounded memory (bounded-lines.ts, issue 44).
 */
import { existsSync, readdirSync, statSync } from 'node:fs';
import { basename, extname, join } from 'node:path';
import { parseArgs } from 'node:util';
import { MODEL_LANGS } from '../contract';
import { CodedError } from '../contract/errors';
import { DEFAULT_MAX_TEXT_CHARS, TextTooLongError } from '../contract/text-length';
import { loadConfig } from '../config';
import {
  type CalibrationProfile,
  MIN_AI_TEXTS,
  MIN_PROFILE_TEXTS,
  MIN_PROFILE_WORDS,
  type ProfileInput,
  type ProfileWarning,
  profileWarnings,
  publicProfile,
} from '../detector/decide/profile';
import { profileOtherWritersLines } from '../detector/explain/other-writers';
import { buildProfile } from '../detector/learn/profile';
import type { Detector } from '../detector/types';
import { ExtractError } from '../extract';
import type { ExtractPool } from '../extract/pool';
import { errorMessage } from '../i18n';
import { modelVersion } from '../model-version';
import { extractPoolFor } from '../modules/batch/pool';
import { countLanguages } from '../modules/calibrations/languages';
import { CalibrationScreen } from '../modules/calibrations/screen';
import { boundedLines, maxLineChars } from './bounded-lines';
import { jsonLine } from './calibrate-line';

/** Usage text of `calibrate`. */
export const CALIBRATE_USAGE = `Usage:
  calibrate --out PROFILE.json [--name NAME] [--ai FILE|FOLDER]... [FILE|FOLDER|-]...
  calibrate --key-id KEY_ID --name NAME [--ai FILE|FOLDER]... [FILE|FOLDER|-]...   store the profile for an API key (the configured database)
Known-human texts: JSON lines {"text": ...} on stdin (with no argument, or "-"), and TXT/MD/DOCX/PDF
files or folders (read recursively). AI examples: lines {"text": ..., "label": "ai"} on stdin, and the
files or folders after --ai (repeatable). A line with another key or label, or a path that does not exist,
stops it (exit 1, nothing written). Each language needs ${MIN_PROFILE_TEXTS}+ human texts of ${MIN_PROFILE_WORDS}+ words;
with ${MIN_AI_TEXTS}+ AI examples it is also adapted to them (docs/calibration.md, "Adapting to your generators").
Prints one JSON summary: texts per language, thresholds, what adapting learned and the measured error per mode.`;

/** File names a folder is searched for (a file named on the command line is always tried). */
export const CALIBRATE_EXTENSIONS: ReadonlySet<string> = new Set(['.txt', '.md', '.markdown', '.docx', '.pdf']);

/**
 * Stores a profile for an API key (the `--key-id` mode) and answers its id. The store side (issue
 * 34's API work) provides it through main.ts; without it `--key-id` is refused.
 */
export type SaveForKey = (profile: CalibrationProfile, keyId: string) => Promise<{ id: string }>;

/** Injectable I/O, detector and store hook (tests); defaults are the process's and createDetector(). */
export interface CalibrateCliDeps {
  detector?: Detector;
  modelVersion?: string;
  pool?: ExtractPool;
  stdin?: AsyncIterable<Uint8Array>;
  out?: (chunk: string) => void | Promise<void>;
  err?: (line: string) => void;
  saveForKey?: SaveForKey;
  /** The creation time (tests); default now. */
  now?: () => Date;
}

/** What was read, by outcome (human texts and AI examples each have one). */
interface Tally {
  read: number;
  usable: number;
  /** Under MIN_PROFILE_WORDS words: not used. */
  tooShort: number;
  /**
   * The same as or a near-duplicate of an earlier text (learn/distinct.ts): not used twice. A text given
   * both as human and as AI is used as human, and counted here among the AI examples.
   */
  duplicates: number;
  /** Unreadable, unextractable or malformed inputs (each named on stderr). */
  failed: number;
}

const tally = (): Tally => ({ read: 0, usable: 0, tooShort: 0, duplicates: 0, failed: 0 });

/** The summary `calibrate` prints. */
export interface CalibrateSummary {
  out: string | null;
  id: string | null;
  name: string;
  modelVersion: string;
  createdAt: string;
  /** The known-human texts read. */
  inputs: Tally;
  /** The AI examples read. */
  aiInputs: Tally;
  languages: ReturnType<typeof publicProfile>['languages'];
  /** What the profile does not cover (profileWarnings): modes without a bar, languages given AI examples but not adapted. */
  warnings: ProfileWarning[];
  /** One line per language on what adapting did: "on your 120 AI examples, this profile catches 84% at balanced; the model alone 59%". */
  adaptation: string[];
  /** Per language and mode with the figures: what its bar flags of reference writers unlike yours (issue 43 item 3), "(bar raised by the guard)" where so. */
  otherWriters: string[];
}

function parseCalibrateArgs(argv: string[]) {
  return parseArgs({
    args: argv,
    allowPositionals: true,
    strict: true,
    options: {
      out: { type: 'string' },
      name: { type: 'string' },
      'key-id': { type: 'string' },
      ai: { type: 'string', multiple: true },
      help: { type: 'boolean', short: 'h' },
    },
  });
}

/** The files of the arguments: a file as given, a folder's files of CALIBRATE_EXTENSIONS (recursively, sorted). */
export function inputFiles(paths: readonly string[]): string[] {
  const files: string[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.isFile() && CALIBRATE_EXTENSIONS.has(extname(entry.name).toLowerCase())) files.push(path);
    }
  };
  for (const path of paths) {
    let dir = false;
    try {
      dir = statSync(path).isDirectory();
    } catch {
      // Missing: scoring it names the error.
    }
    if (dir) walk(path);
    else files.push(path);
  }
  return files;
}

/** Runs `calibrate`; resolves to the exit code (0 written, 1 no profile could be made, 2 usage). */
export async function runCalibrateCli(argv: string[], deps: CalibrateCliDeps = {}): Promise<number> {
  const err = deps.err ?? ((line: string) => console.error(line));
  let parsed: ReturnType<typeof parseCalibrateArgs>;
  try {
    parsed = parseCalibrateArgs(argv);
  } catch (error) {
    err(`calibrate: ${(error as Error).message}\n${CALIBRATE_USAGE}`);
    return 2;
  }
  const { values, positionals } = parsed;
  const write = deps.out ?? ((chunk: string) => void process.stdout.write(chunk));
  if (values.help) {
    await write(`${CALIBRATE_USAGE}\n`);
    return 0;
  }
  const keyId = values['key-id'];
  if ((values.out === undefined) === (keyId === undefined)) {
    err(`calibrate: give exactly one of --out FILE and --key-id KEY_ID\n${CALIBRATE_USAGE}`);
    return 2;
  }
  if (keyId !== undefined && !deps.saveForKey) {
    err('calibrate: --key-id needs the store (not available in this build); use --out FILE');
    return 2;
  }
  if (keyId !== undefined && !values.name) {
    err('calibrate: --key-id needs --name NAME');
    return 2;
  }
  const name = values.name ?? basename(values.out!, extname(values.out!));
  // A path that is not there is a mistake, not an empty side: nothing is read or written (issue 45).
  const missing = [...positionals.filter((p) => p !== '-'), ...(values.ai ?? [])].find((path) => !existsSync(path));
  if (missing !== undefined) {
    const side = (values.ai ?? []).includes(missing) ? '--ai ' : '';
    err(`calibrate: ${side}${missing}: no such file or folder; nothing was written`);
    return 1;
  }
  const fromStdin = positionals.length === 0 || positionals.includes('-');
  const detector = deps.detector ?? (await (await import('../detector')).createDetector());
  const sides = { human: { samples: [] as ProfileInput[], tally: tally() }, ai: { samples: [] as ProfileInput[], tally: tally() } };
  const screen = new CalibrationScreen((text) => detector.countWords(text), DEFAULT_MAX_TEXT_CHARS);
  /** The screen's id of each AI sample, in order: a human text given after it as AI replaces it. */
  const aiIds: number[] = [];
  /** A line or file that cannot be used or scored, named on stderr: the other texts still make the profile (issue 40). */
  const fail = (t: Tally, where: string, error: Pick<CodedError, 'code' | 'params'>) => {
    t.failed++;
    err(`${where}\terror\t${error.code}\t${errorMessage('en', error.code, error.params)}`);
  };
  // Each text is scored and dropped: only its score (and, until the profile is fitted, its evidence) is kept.
  const take = (text: string, where: string, side: 'human' | 'ai') => {
    const t = sides[side].tally;
    t.read++;
    const screened = screen.screen(text, side);
    if (!screened.use) {
      if (screened.why === 'refused') fail(t, where, screened.error);
      else if (screened.why === 'duplicate') t.duplicates++;
      else t.tooShort++;
      return;
    }
    if (screened.replaces !== undefined) {
      // Given first as an AI example (a line labelled "ai" before this one): used as human, that example left out.
      const at = aiIds.indexOf(screened.replaces);
      if (at >= 0) {
        aiIds.splice(at, 1);
        sides.ai.samples.splice(at, 1);
        sides.ai.tally.usable--;
      }
      sides.ai.tally.duplicates++;
    }
    try {
      const s = detector.profileSample(text);
      if (s) {
        sides[side].samples.push(s);
        if (side === 'ai') aiIds.push(screened.id);
        t.usable++;
      } else t.tooShort++;
    } catch (error) {
      // TextTooLongError: within the limit as read, past it once normalised (NFKC).
      if (error instanceof TextTooLongError) fail(t, where, error);
      else fail(t, where, { code: 'internal_error', params: {} });
    }
  };
  if (fromStdin) {
    let line = 0;
    const stdin = deps.stdin ?? (Bun.stdin.stream() as unknown as AsyncIterable<Uint8Array>);
    // A line too long for any text a detection takes is refused as it is read: memory stays bounded (issue 44).
    for await (const lines of boundedLines(stdin, maxLineChars(DEFAULT_MAX_TEXT_CHARS))) {
      for (const bounded of lines) {
        line++;
        if ('tooLong' in bounded) {
          sides.human.tally.read++;
          fail(sides.human.tally, `stdin:${line}`, {
            code: 'text_too_long',
            params: { count: bounded.tooLong, limit: DEFAULT_MAX_TEXT_CHARS },
          });
          continue;
        }
        const raw = bounded.text;
        if (raw.trim() === '') continue;
        const read = jsonLine(raw);
        if (read === null) {
          sides.human.tally.read++;
          sides.human.tally.failed++;
          err(`stdin:${line}\terror\ttext_required\tnot a JSON object with a string "text"`);
        } else if ('unknownKey' in read) {
          // `{"text", "ai": true}` was read as a human text: a key we do not know stops the command, as a wrong label does.
          err(
            `calibrate: stdin:${line}: unknown key ${JSON.stringify(read.unknownKey)}; a line has "text" and optionally "label" ("human" or "ai") and "id"${read.meant ? ` (did you mean "label": "ai"?)` : ''}; nothing was written`,
          );
          return 1;
        } else if (read.label === undefined) {
          // A labelled AI line must never be read as a human text: a label we do not know stops the command.
          err(
            `calibrate: stdin:${line}: "label" is ${JSON.stringify(read.badLabel)}; a line is "human" (or has no label) or "ai"; nothing was written`,
          );
          return 1;
        } else take(read.text, `stdin:${line}`, read.label);
      }
    }
  }
  const files = [
    ...inputFiles(positionals.filter((p) => p !== '-')).map((path) => ({ path, side: 'human' as const })),
    ...inputFiles(values.ai ?? []).map((path) => ({ path, side: 'ai' as const })),
  ];
  if (files.length) {
    // PDF/DOCX through the server's worker pool: the limits, timeout and heap ceiling of `detect` and the API.
    const pool = deps.pool ?? extractPoolFor(loadConfig());
    try {
      for (const { path, side } of files) {
        try {
          take((await pool.extract(await Bun.file(path).bytes(), basename(path))).text, path, side);
        } catch (error) {
          sides[side].tally.read++;
          sides[side].tally.failed++;
          if (error instanceof ExtractError) err(`${path}\terror\t${error.code}\t${errorMessage('en', error.code, error.params)}`);
          else err(`${path}\terror\tunreadable\t${(error as Error).message}`);
        }
      }
    } finally {
      if (!deps.pool) pool.close();
    }
  }
  const version = deps.modelVersion ?? modelVersion();
  const stray = strayAiExamples(sides.human.samples, sides.ai.samples);
  if (stray) {
    // Scored, then nothing to set a bar on: never "no AI examples" beside them (issue 45).
    err(
      `calibrate: ${stray.count} AI examples are in "${stray.language}" and no known-human text is: a language's bars are set on its human texts. Add at least ${MIN_PROFILE_TEXTS} human texts in "${stray.language}", or leave those examples out; nothing was written`,
    );
    return 1;
  }
  let profile: CalibrationProfile;
  try {
    profile = buildProfile(
      sides.human.samples,
      {
        name,
        modelVersion: version,
        createdAt: (deps.now?.() ?? new Date()).toISOString(),
        ...detector.facts,
        duplicates: screen.duplicates(),
      },
      sides.ai.samples,
    );
  } catch (error) {
    if (!(error instanceof CodedError)) throw error;
    err(`calibrate: ${tooSmallMessage(error, sides.human.tally, sides.ai.tally)}`);
    return 1;
  }
  let id: string | null = null;
  if (keyId !== undefined) id = (await deps.saveForKey!(profile, keyId)).id;
  else await Bun.write(values.out!, `${JSON.stringify(profile)}\n`);
  const { languages } = publicProfile(profile);
  const summary: CalibrateSummary = {
    out: values.out ?? null,
    id,
    name,
    modelVersion: version,
    createdAt: profile.createdAt,
    inputs: sides.human.tally,
    aiInputs: sides.ai.tally,
    languages,
    warnings: profileWarnings(profile),
    adaptation: adaptationLines(profile),
    otherWriters: profileOtherWritersLines(profile, 'en'),
  };
  await write(`${JSON.stringify(summary, null, 2)}\n`);
  return 0;
}

const percent = (share: number) => `${Math.round(share * 100)}%`;

/** Per language, what adapting did, in the words the playground uses (docs/calibration.md). */
export function adaptationLines(profile: CalibrationProfile): string[] {
  const out: string[] = [];
  for (const [lang, l] of Object.entries(profile.languages)) {
    if (!l) continue;
    const a = l.adaptation;
    if (a) {
      const m = a.modes.balanced;
      out.push(
        `${lang}: adapted; on your ${a.aiTexts} AI examples, this profile catches ${percent(m.catchRate)} at balanced; the model alone ${percent(m.modelCatchRate)} (cross-validated)`,
      );
      continue;
    }
    const why = l.notAdapted;
    if (!why || why.reason === 'no_ai_texts') out.push(`${lang}: calibration-only (no AI examples)`);
    else if (why.reason === 'too_few_ai_texts')
      out.push(`${lang}: calibration-only: ${why.aiTexts} AI examples, at least ${why.minAiTexts} needed to adapt`);
    else if (why.reason === 'not_separable') {
      out.push(
        `${lang}: calibration-only: your ${why.aiTexts} AI examples cannot be told from your human texts (AUROC ${why.auroc?.adapted}); not applied`,
      );
    } else if (why.reason === 'examples_look_human') {
      out.push(
        `${lang}: calibration-only: what sets your ${why.aiTexts} AI examples apart is also written by other human writers; once the thresholds protect them nothing is gained (check that the examples are AI text)`,
      );
    } else
      out.push(
        `${lang}: calibration-only: adapting caught no more of your ${why.aiTexts} AI examples than the model alone (cross-validated); not applied`,
      );
  }
  return out;
}

/** The first language (MODEL_LANGS order) with AI examples and human texts of none, with its count; null when there is none. */
function strayAiExamples(human: readonly ProfileInput[], ai: readonly ProfileInput[]): { language: string; count: number } | null {
  if (human.length === 0) return null;
  const humanLangs = countLanguages(human.map((s) => s.lang));
  const aiLangs = countLanguages(ai.map((s) => s.lang));
  const language = MODEL_LANGS.find((lang) => (aiLangs[lang] ?? 0) > 0 && !humanLangs[lang]);
  return language ? { language, count: aiLangs[language]! } : null;
}

/** What the operator reads when no profile could be made: what was read, what is missing, what to do. */
function tooSmallMessage(error: CodedError, tally: Tally, aiTally: Tally): string {
  const read = `(${tally.read} texts read, ${tally.usable} usable, ${tally.tooShort} under ${MIN_PROFILE_WORDS} words, ${tally.failed} failed)`;
  if (error.code === 'calibration_too_small') {
    const { language, count, min } = error.params;
    return `language "${language}" has ${count} usable texts (${MIN_PROFILE_WORDS}+ words each); a profile needs at least ${min} per language: add texts of it, or leave it out ${read}`;
  }
  if (aiTally.read > 0 && tally.usable === 0) {
    return `no known-human text: ${tally.read} human texts and ${aiTally.read} AI examples read (${aiTally.usable} usable); a profile's bars are set on known-human texts: give at least ${MIN_PROFILE_TEXTS} human texts of ${MIN_PROFILE_WORDS}+ words per language with them (JSON lines without a label, or files and folders as arguments)`;
  }
  return `no usable text: a profile needs at least ${MIN_PROFILE_TEXTS} texts of ${MIN_PROFILE_WORDS}+ words per language ${read}`;
}
