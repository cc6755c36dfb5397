/** The `detect` subcommand: score files (TXT, MD, DOCX, PDF) or JSON lines from stdin, offline (no server, no key). */
import { basename } from 'node:path';
import { parseArgs } from 'node:util';
import type { Analysis, CalibrationProfile, Detector } from '../detector/types';
import { isStale, parseProfile } from '../detector/decide/profile';
import { CodedError } from '../contract/errors';
import { TextTooLongError } from '../contract/text-length';
import {
  aiSharePercent,
  DEFAULT_LABEL_LANG,
  DEFAULT_SENSITIVITY,
  type LabelLang,
  SENSITIVITIES,
  type Sensitivity,
  sensitivityOrDefault,
} from '../contract';
import { loadConfig } from '../config';
import { ExtractError, type FileFormat } from '../extract';
import type { ExtractPool } from '../extract/pool';
import { errorMessage, matchLang } from '../i18n';
import { extractPoolFor } from '../modules/batch/pool';
import { modelVersion } from '../model-version';
import { ApiError } from '../http/errors';
import { checkScorable } from '../modules/detect/service';
import { runJsonl } from './detect-jsonl';

/** Usage text of `detect`. */
export const DETECT_USAGE = `Usage:
  detect [--sensitivity MODE] [--lang en|es] [--calibration PROFILE.json] FILE...
                                                       score and verdict per file (txt, md, docx, pdf)
  detect --jsonl [--sentences] [--sensitivity MODE] [--lang en|es] [--calibration PROFILE.json]
                                                       JSON lines {"text": ...} on stdin -> one JSON line each on stdout;
                                                       --sentences adds each sentence's score (sentenceScores)
MODE: ${SENSITIVITIES.join(' | ')} (default ${DEFAULT_SENSITIVITY}).
--calibration: decide with a profile made by \`calibrate\` (docs/calibration.md); each JSON line then carries \`calibration\`.`;

/** Injectable I/O and detector (tests); defaults are the process's stdin/stdout/stderr and createDetector(). */
export interface DetectCliDeps {
  detector?: Detector;
  /** Version of the detector's model (default: the committed model's, src/model-version.ts). */
  modelVersion?: string;
  /** Extraction pool; default: the server's, from the environment (same limits, timeout and heap ceiling). */
  pool?: ExtractPool;
  stdin?: AsyncIterable<Uint8Array>;
  out?: (chunk: string) => void | Promise<void>;
  err?: (line: string) => void;
}

async function defaultDetector(): Promise<Detector> {
  const { createDetector } = await import('../detector');
  return createDetector();
}

function stdoutWriter(): (chunk: string) => Promise<void> {
  const sink = Bun.stdout.writer();
  return async (chunk) => {
    sink.write(chunk);
    await sink.flush();
  };
}

/** One file's line in file mode. */
export function formatFileLine(name: string, format: FileFormat, a: Analysis): string {
  const c = a.calibration;
  // With --calibration: which bar decided (the profile's, or why not).
  const profile = c ? `, profile "${c.name}" ${c.applied ? 'applied' : `not applied (${c.reason})`}` : '';
  return `${name}\t${a.score}\t${a.verdictKey}\t${a.verdict}\t${format}, ${a.words} words, lang ${a.language}, AI share ${aiSharePercent(a.aiShare)}%${profile}`;
}

/** Scores one file; what the API refuses (checkScorable: under MIN_WORDS words, too many sentences) is refused here too. */
async function scoreFile(path: string, pool: ExtractPool, detector: Detector, o: FileOptions): Promise<string> {
  const { format, text } = await pool.extract(await Bun.file(path).bytes(), basename(path));
  const words = detector.countWords(text);
  checkScorable(text, words);
  const { sensitivity, lang, profile, modelVersion: version } = o;
  return formatFileLine(path, format, detector.analyze(text, { sensitivity, labelLang: lang, words, profile, modelVersion: version }));
}

/** How file mode scores each file. */
interface FileOptions {
  sensitivity: Sensitivity;
  lang: LabelLang;
  profile: CalibrationProfile | null;
  modelVersion: string;
}

/** Reads a profile file (`--calibration`): the profile, or a message naming the file and what is wrong. */
export async function readProfileFile(path: string): Promise<CalibrationProfile | string> {
  let raw: string;
  try {
    raw = await Bun.file(path).text();
  } catch (error) {
    return `cannot read ${path}: ${(error as Error).message}`;
  }
  try {
    return parseProfile(JSON.parse(raw));
  } catch (error) {
    if (error instanceof SyntaxError) return `${path} is not JSON: ${error.message}`;
    if (error instanceof CodedError) return `${path}: ${error.message}`;
    throw error;
  }
}

/** The command line of `detect` (throws on an unknown option). */
function parseDetectArgs(argv: string[]) {
  return parseArgs({
    args: argv,
    allowPositionals: true,
    strict: true,
    options: {
      jsonl: { type: 'boolean' },
      sentences: { type: 'boolean' },
      sensitivity: { type: 'string' },
      lang: { type: 'string' },
      calibration: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
}

/** Runs `detect` with its arguments; resolves to the exit code (0 ok, 1 some input failed, 2 usage). */
export async function runDetectCli(argv: string[], deps: DetectCliDeps = {}): Promise<number> {
  const err = deps.err ?? ((line: string) => console.error(line));
  let parsed: ReturnType<typeof parseDetectArgs>;
  try {
    parsed = parseDetectArgs(argv);
  } catch (error) {
    err(`detect: ${(error as Error).message}\n${DETECT_USAGE}`);
    return 2;
  }
  const { values, positionals } = parsed;
  if (values.help) {
    await (deps.out ?? stdoutWriter())(`${DETECT_USAGE}\n`);
    return 0;
  }
  const mode = sensitivityOrDefault(values.sensitivity);
  if (!mode) {
    err(`detect: --sensitivity must be one of ${SENSITIVITIES.join(', ')}, got "${values.sensitivity}"`);
    return 2;
  }
  const lang = matchLang(values.lang) ?? DEFAULT_LABEL_LANG;
  if (values.sentences && !values.jsonl) {
    err('detect: --sentences goes with --jsonl (file mode prints one line per file)');
    return 2;
  }
  if (values.jsonl ? positionals.length > 0 : positionals.length === 0) {
    err(values.jsonl ? 'detect --jsonl reads stdin: give no file names' : DETECT_USAGE);
    return 2;
  }
  let profile: CalibrationProfile | null = null;
  if (values.calibration !== undefined) {
    const read = await readProfileFile(values.calibration);
    if (typeof read === 'string') {
      err(`detect: --calibration: ${read}`);
      return 2;
    }
    profile = read;
  }
  const detector = deps.detector ?? (await defaultDetector());
  const version = deps.modelVersion ?? modelVersion();
  // A stale profile still answers (each line says model_changed), but the operator hears it once, here.
  if (profile && isStale(profile, version)) {
    err(
      `detect: the profile "${profile.name}" was made with model ${profile.modelVersion}, this is ${version}: the global thresholds apply (calibrate again: docs/calibration.md)`,
    );
  }
  const out = deps.out ?? stdoutWriter();
  if (values.jsonl) {
    const input = deps.stdin ?? (Bun.stdin.stream() as unknown as AsyncIterable<Uint8Array>);
    await runJsonl({
      detector,
      modelVersion: version,
      sensitivity: mode,
      lang,
      sentences: values.sentences ?? false,
      profile,
      input,
      write: out,
    });
    // Bad lines are answered in the output itself; only a usage error fails the command.
    return 0;
  }
  // PDF/DOCX go through the server's worker pool: a hostile file meets the same budgets, the
  // same timeout and the same heap ceiling as on the server, instead of this process's heap.
  const pool = deps.pool ?? extractPoolFor(loadConfig());
  let failures = 0;
  try {
    for (const path of positionals) {
      const line = await scoreOrExplain(path, pool, detector, { sensitivity: mode, lang, profile, modelVersion: version });
      if (line.ok) await out(`${line.text}\n`);
      else {
        failures++;
        err(line.text);
      }
    }
  } finally {
    if (!deps.pool) pool.close();
  }
  return failures > 0 ? 1 : 0;
}

/** One file's output line, or its error line for stderr. */
async function scoreOrExplain(path: string, pool: ExtractPool, detector: Detector, o: FileOptions): Promise<{ ok: boolean; text: string }> {
  const { lang } = o;
  try {
    return { ok: true, text: await scoreFile(path, pool, detector, o) };
  } catch (error) {
    // TextTooLongError: within the limit as read, past it once normalised (NFKC).
    if (error instanceof ExtractError || error instanceof ApiError || error instanceof TextTooLongError) {
      return { ok: false, text: `${path}\terror\t${error.code}\t${errorMessage(lang, error.code, error.params)}` };
    }
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { ok: false, text: `${path}\terror\tnot_found\tno such file` };
    // A directory, a permission problem: the system's own message names it.
    return { ok: false, text: `${path}\terror\tunreadable\t${(error as Error).message}` };
  }
}
