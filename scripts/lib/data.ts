/** The shared labelled data: discovery, loading, source families and the training-time clean-up of known artifacts. */
import type { ModelLang } from '../../src/contract';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

/** What a round-3 row says about mixed or edited text (MANIFEST.md, "Extra field mix"). */
export interface MixInfo {
  type: string;
  /** Index in text.split(/\s+/) of the first machine-written word (human prefix, then LLM continuation). */
  human_end_word?: number;
  ai_fraction_words?: number;
  /** [start, end) character offsets of the words an editor inserted or replaced. */
  edited_spans?: [number, number][];
  changed_word_fraction?: number;
}

export interface Row {
  text: string;
  label: 'human' | 'ai';
  lang: ModelLang;
  source: string;
  domain: string;
  model: string | null;
  variant: string | null;
  mix?: MixInfo;
}

/** Where the shared data lives: $DATA_DIR, else ../shared/data beside the repo. */
export function dataDir(): string {
  return resolve(process.env.DATA_DIR ?? join(import.meta.dir, '..', '..', '..', 'shared', 'data'));
}

/** True when the shared data is present (tests that need it skip otherwise). */
export function hasData(): boolean {
  return existsSync(join(dataDir(), 'MANIFEST.md'));
}

/** Sub-folders holding later rounds of sources, read like the top level (MANIFEST.md: round 3 is in round3/). */
const ROUND_DIRS = ['', 'round3'];

/** The split's files (`train` or `dev`) of every round, sorted for reproducibility. */
export function splitFiles(split: 'train' | 'dev'): string[] {
  const dir = dataDir();
  return ROUND_DIRS.flatMap((sub) => {
    const d = join(dir, sub);
    if (!existsSync(d)) return [];
    return readdirSync(d)
      .filter((f) => f.endsWith(`.${split}.jsonl`))
      .sort()
      .map((f) => join(d, f));
  });
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

/**
 * Sources that share their texts or their generators with another source are left out together
 * when a source is held out: AuTexTification's attribution set comes from the same generators and
 * domains as its detection set; MixSet's edited texts and APT-Eval's polished texts are edits of
 * MixSet's human texts; the USE/COWSL2H essays share COWSL2H's human essays. Holding out one of a
 * family alone would leave its twin in training and make the held-out score look better (or, for
 * a label-confounded twin, worse) than a truly new source.
 */
const FAMILY_OF: Record<string, string> = {
  autextification2023_attribution_ai: 'autextification2023',
  mixset_llm_edited: 'mixset_pure',
  apt_eval_polished: 'mixset_pure',
  use_cowsl2h_chatgpt_essays: 'cowsl2h_spanish_learner_essays',
};

/** The family a source is held out with (its own name for most sources). */
export function familyOf(source: string): string {
  return FAMILY_OF[source] ?? source;
}

/** Chat preambles ("Sure, here's...") occur in AI rows only: a label leak the model must not learn. */
const PREAMBLE =
  /^\s*(?:sure|certainly|of course|absolutely|great question|here(?:'s| is| are)|okay|¡?claro|por supuesto|aquí tienes|aquí está|¡?desde luego)\b[^\n]*?(?:[.!:]\s+|\n+)/i;

/** Training-time clean-up: drop a chat preamble line so the model cannot lean on it. */
export function cleanForTraining(text: string): string {
  const m = PREAMBLE.exec(text);
  if (m && m[0].length < 200 && text.length - m[0].length > 100) return text.slice(m[0].length);
  return text;
}
