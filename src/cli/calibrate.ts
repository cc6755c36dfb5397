/**
 * The `calibrate` subcommand (issue 34): a calibration profile from an operator's own known-human
 * texts, offline. Reads JSON lines `{"text": ...}` on stdin and/or TXT/MD/DOCX/PDF files and folders
 * given as arguments (the extraction limits of `detect` and the API), scores each text once and keeps
 * its score only (never a word of it: nothing is written but the profile), then writes the profile
 * (--out) and prints one JSON summary. Exits 1 with a message when a language has too few usable texts.
 */
import { readdirSync, statSync } from 'node:fs';
import { basename, extname, join } from 'node:path';
import { parseArgs } from 'node:util';
import { CodedError } from '../contract/errors';
import { TextTooLongError } from '../contract/text-length';
import { loadConfig } from '../config';
import {
  buildProfile,
  type CalibrationProfile,
  type LangProfileSample,
  MIN_PROFILE_TEXTS,
  MIN_PROFILE_WORDS,
  publicProfile,
} from '../detector/decide/profile';
import type { Detector } from '../detector/types';
import { ExtractError } from '../extract';
import type { ExtractPool } from '../extract/pool';
import { ApiError } from '../http/errors';
import { errorMessage } from '../i18n';
import { modelVersion } from '../model-version';
import { extractPoolFor } from '../modules/batch/pool';
import { checkScorable, checkTextLength } from '../modules/detect/service';
import { lineChunks } from './detect-jsonl';

/** Usage text of `calibrate`. */
export const CALIBRATE_USAGE = `Usage:
  calibrate --out PROFILE.json [--name NAME] [FILE|FOLDER|-]...
  calibrate --key-id KEY_ID --name NAME [FILE|FOLDER|-]...   store the profile for an API key (the configured database)
Known-human texts: JSON lines {"text": ...} on stdin (with no argument, or "-"), and TXT/MD/DOCX/PDF
files or folders (read recursively). Each language needs ${MIN_PROFILE_TEXTS}+ texts of ${MIN_PROFILE_WORDS}+ words.
Prints one JSON summary: texts per language, thresholds and the measured error per mode (docs/calibration.md).`;

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

/** What was read, by outcome. */
interface Tally {
  read: number;
  usable: number;
  /** Under MIN_PROFILE_WORDS words: not used. */
  tooShort: number;
  /** Unreadable, unextractable or malformed inputs (each named on stderr). */
  failed: number;
}

/** The summary `calibrate` prints. */
export interface CalibrateSummary {
  out: string | null;
  id: string | null;
  name: string;
  modelVersion: string;
  createdAt: string;
  inputs: Tally;
  languages: ReturnType<typeof publicProfile>['languages'];
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
  const fromStdin = positionals.length === 0 || positionals.includes('-');
  const detector = deps.detector ?? (await (await import('../detector')).createDetector());
  const samples: LangProfileSample[] = [];
  const tally: Tally = { read: 0, usable: 0, tooShort: 0, failed: 0 };
  // Each text is scored and dropped: only its score is kept. A text that cannot be scored is named
  // and skipped, whatever the reason: the other texts still make the profile (issue 40).
  const take = (text: string, where: string) => {
    tally.read++;
    try {
      checkTextLength(text);
      const words = detector.countWords(text);
      if (words < MIN_PROFILE_WORDS) {
        tally.tooShort++;
        return;
      }
      checkScorable(text, words);
      const s = detector.profileSample(text);
      if (s) {
        samples.push(s);
        tally.usable++;
      } else tally.tooShort++;
    } catch (error) {
      tally.failed++;
      // TextTooLongError: within the limit as read, past it once normalised (NFKC).
      if (error instanceof ApiError || error instanceof TextTooLongError) {
        err(`${where}\terror\t${error.code}\t${errorMessage('en', error.code, error.params)}`);
      } else err(`${where}\terror\tinternal_error\t${(error as Error)?.name ?? 'Error'}`);
    }
  };
  if (fromStdin) {
    let line = 0;
    for await (const lines of lineChunks(deps.stdin ?? (Bun.stdin.stream() as unknown as AsyncIterable<Uint8Array>))) {
      for (const raw of lines) {
        line++;
        if (raw.trim() === '') continue;
        const text = jsonText(raw);
        if (text === null) {
          tally.read++;
          tally.failed++;
          err(`stdin:${line}\terror\ttext_required\tnot a JSON object with a string "text"`);
        } else take(text, `stdin:${line}`);
      }
    }
  }
  const files = inputFiles(positionals.filter((p) => p !== '-'));
  if (files.length) {
    // PDF/DOCX through the server's worker pool: the limits, timeout and heap ceiling of `detect` and the API.
    const pool = deps.pool ?? extractPoolFor(loadConfig());
    try {
      for (const path of files) {
        try {
          take((await pool.extract(await Bun.file(path).bytes(), basename(path))).text, path);
        } catch (error) {
          tally.read++;
          tally.failed++;
          if (error instanceof ExtractError) err(`${path}\terror\t${error.code}\t${errorMessage('en', error.code, error.params)}`);
          else err(`${path}\terror\tunreadable\t${(error as Error).message}`);
        }
      }
    } finally {
      if (!deps.pool) pool.close();
    }
  }
  const version = deps.modelVersion ?? modelVersion();
  let profile: CalibrationProfile;
  try {
    profile = buildProfile(samples, {
      name,
      modelVersion: version,
      createdAt: (deps.now?.() ?? new Date()).toISOString(),
      probabilityAt: detector.probabilityAt?.bind(detector),
    });
  } catch (error) {
    if (!(error instanceof CodedError)) throw error;
    err(`calibrate: ${tooSmallMessage(error, tally)}`);
    return 1;
  }
  let id: string | null = null;
  if (keyId !== undefined) id = (await deps.saveForKey!(profile, keyId)).id;
  else await Bun.write(values.out!, `${JSON.stringify(profile)}\n`);
  const summary: CalibrateSummary = {
    out: values.out ?? null,
    id,
    name,
    modelVersion: version,
    createdAt: profile.createdAt,
    inputs: tally,
    languages: publicProfile(profile).languages,
  };
  await write(`${JSON.stringify(summary, null, 2)}\n`);
  return 0;
}

/** The string `text` of a JSON line, or null. */
function jsonText(raw: string): string | null {
  try {
    const value: unknown = JSON.parse(raw.charCodeAt(0) === 0xfeff ? raw.slice(1) : raw);
    const text = value !== null && typeof value === 'object' ? (value as { text?: unknown }).text : undefined;
    return typeof text === 'string' ? text : null;
  } catch {
    return null;
  }
}

/** What the operator reads when no profile could be made. */
function tooSmallMessage(error: CodedError, tally: Tally): string {
  const read = `(${tally.read} texts read, ${tally.usable} usable, ${tally.tooShort} under ${MIN_PROFILE_WORDS} words, ${tally.failed} failed)`;
  if (error.code === 'calibration_too_small') {
    const { language, count, min } = error.params;
    return `language "${language}" has ${count} usable texts (${MIN_PROFILE_WORDS}+ words each); a profile needs at least ${min} per language: add texts of it, or leave it out ${read}`;
  }
  return `no usable text: a profile needs at least ${MIN_PROFILE_TEXTS} texts of ${MIN_PROFILE_WORDS}+ words per language ${read}`;
}
