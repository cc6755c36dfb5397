/** The shared labelled data: discovery, loading and the training-time clean-up of known artifacts. */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

export interface Row {
  text: string;
  label: 'human' | 'ai';
  lang: 'en' | 'es';
  source: string;
  domain: string;
  model: string | null;
  variant: string | null;
}

/** Where the shared data lives: $DATA_DIR, else ../shared/data beside the repo. */
export function dataDir(): string {
  return resolve(process.env.DATA_DIR ?? join(import.meta.dir, '..', '..', '..', 'shared', 'data'));
}

/** True when the shared data is present (tests that need it skip otherwise). */
export function hasData(): boolean {
  return existsSync(join(dataDir(), 'MANIFEST.md'));
}

/** The split's files (`train` or `dev`), sorted for reproducibility. */
export function splitFiles(split: 'train' | 'dev'): string[] {
  const dir = dataDir();
  return readdirSync(dir).filter((f) => f.endsWith(`.${split}.jsonl`)).sort().map((f) => join(dir, f));
}

/** Read JSON lines rows from files. */
export function loadRows(files: string[]): Row[] {
  const rows: Row[] = [];
  for (const f of files) {
    for (const line of readFileSync(f, 'utf8').split('\n')) {
      if (line.trim()) rows.push(JSON.parse(line) as Row);
    }
  }
  return rows;
}

/** Chat preambles ("Sure, here's...") occur in AI rows only: a label leak the model must not learn. */
const PREAMBLE = /^\s*(?:sure|certainly|of course|absolutely|great question|here(?:'s| is| are)|okay|¡?claro|por supuesto|aquí tienes|aquí está|¡?desde luego)\b[^\n]*?(?:[.!:]\s+|\n+)/i;

/** Training-time clean-up: drop a chat preamble line so the model cannot lean on it. */
export function cleanForTraining(text: string): string {
  const m = PREAMBLE.exec(text);
  if (m && m[0].length < 200 && text.length - m[0].length > 100) return text.slice(m[0].length);
  return text;
}
