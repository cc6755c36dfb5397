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
  /** Round 4: a human original and the AI texts made from it share a group (`fdg:` = fastdetectgpt_gpt34's articles). */
  group?: string;
}

/** Where the shared data lives: $DATA_DIR, else ../shared/data beside the repo. */
export function dataDir(): string {
  return resolve(process.env.DATA_DIR ?? join(import.meta.dir, '..', '..', '..', 'shared', 'data'));
}

/** True when the shared data is present (tests that need it skip otherwise). */
export function hasData(): boolean {
  return existsSync(join(dataDir(), 'MANIFEST.md'));
}

/** Sub-folders holding later rounds of sources, read like the top level (MANIFEST.md: rounds 3 and 4). */
const ROUND_DIRS = ['', 'round3', 'round4'];

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

/**
 * The family a row is held out with (its source's name for most rows). Round 4's English rows are
 * 2024 generators' continuations, rewrites and polishes of `fastdetectgpt_gpt34`'s articles (their
 * group starts `fdg:`): they are held out with that source, so a held-out score never comes from a
 * model that saw the same originals.
 */
export function familyOf(row: Pick<Row, 'source' | 'group'>): string {
  if (row.group?.startsWith('fdg:')) return 'fastdetectgpt_gpt34';
  return FAMILY_OF[row.source] ?? row.source;
}

/**
 * Families the lexical model is never trained on. AuTexTification (both sets) is fixed-length cuts of
 * 2022-23 generators with apostrophes removed, and its attribution set is nearly all of the Spanish AI
 * text: trained on, it taught the model those artifacts and lowered out-of-source AUROC, Spanish most
 * (DETECTION_NOTES.md, third round; model card, "Training mix"). Its texts are still scored held out
 * and reported by `bun run eval --loso`, as a source the model has never seen.
 */
export const UNTRAINED_FAMILIES: ReadonlySet<string> = new Set(['autextification2023']);

/**
 * Formal human prose: news, encyclopedic and academic text, technical Q&A, (source, domain) with `*`
 * for every domain of a source. The human writing most often flagged out of source (word statistics
 * read formal register as machine-like), so `bun run eval --loso` reports it on its own. Weighing
 * these texts 2x or 4x in training was tried and not kept (model card, "What was tried").
 */
const FORMAL_HUMAN: Record<string, ReadonlySet<string> | '*'> = {
  bbc_news_2005: '*',
  xquad_wikipedia: '*',
  stackexchange_coffee_beer: '*',
  m4_llama2: new Set(['arxiv_abstract', 'wikipedia']),
  l2r_rewrites_2024: new Set(['academic', 'wiki', 'legal', 'news']),
};

/** True for a human row of formal prose (FORMAL_HUMAN). */
export function isFormalHuman(row: Pick<Row, 'label' | 'source' | 'domain'>): boolean {
  const domains = FORMAL_HUMAN[row.source];
  return row.label === 'human' && domains !== undefined && (domains === '*' || domains.has(row.domain));
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
