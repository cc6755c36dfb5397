/** The shared labelled data: discovery, loading, source families and the training-time clean-up of known artifacts. */
import type { ModelLang } from '../../src/contract';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';

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

/** Sub-folders holding later rounds of sources, read like the top level (MANIFEST.md: rounds 3 to 6). */
const ROUND_DIRS = ['', 'round3', 'round4', 'round5', 'round6'];

/**
 * Sources whose licence, as MANIFEST.md states it, forbids commercial use or limits the data to
 * research: `bun run train --commercial` leaves them out. Sources with no licence file at all are
 * not listed (nothing forbids, nothing grants): the model card names them.
 */
export const NON_COMMERCIAL_SOURCES: ReadonlySet<string> = new Set([
  'amazon_reviews_es',
  'autextification2023',
  'autextification2023_attribution_ai',
  'bbc_news_2005',
  'intertass_tweets_es',
  // Round 6: no licence stated; the human abstracts keep their authors' rights (MANIFEST.md: research-only).
  'lu_thesis_abstracts_gpt35',
  'micusp_native_student_papers',
  'openstax_textbooks',
  'pan24_news_2021',
  'scielo_abstracts_es',
  'swp_biology_lab_reports',
  'use_cowsl2h_chatgpt_essays',
  'wi_learner_essays',
]);

/** Which sources to read: all of them, or only those whose licence allows commercial use. */
export interface DataOptions {
  commercialOnly?: boolean;
}

/** The source a data file holds (`<source>.<split>.jsonl`). */
export const sourceOfFile = (file: string): string => basename(file).replace(/\.(train|dev)\.jsonl$/, '');

/** The split's files (`train` or `dev`) of every round, sorted for reproducibility. */
export function splitFiles(split: 'train' | 'dev', o: DataOptions = {}): string[] {
  const dir = dataDir();
  return ROUND_DIRS.flatMap((sub) => {
    const d = join(dir, sub);
    if (!existsSync(d)) return [];
    return readdirSync(d)
      .filter((f) => f.endsWith(`.${split}.jsonl`))
      .filter((f) => !o.commercialOnly || !NON_COMMERCIAL_SOURCES.has(sourceOfFile(f)))
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
 * these texts 2x or 4x in training was tried and not kept (model card, "What was tried"); weighing
 * labels equally within each register was tried this round and not kept either (weights.ts).
 */
const FORMAL_HUMAN: Record<string, ReadonlySet<string> | '*'> = {
  bbc_news_2005: '*',
  pan24_news_2021: '*',
  scitldr_abstracts: '*',
  micusp_native_student_papers: '*',
  swp_biology_lab_reports: '*',
  openstax_textbooks: '*',
  codiesp_clinical_cases_es: '*',
  scielo_abstracts_es: '*',
  lu_thesis_abstracts_gpt35: '*',
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

/**
 * The register of a row's domain: what the register-balancing experiment balances labels within
 * (weights.ts BALANCE_REGISTERS, off), so that formality by itself would be no evidence of either author. Among the training texts AI text is mostly
 * formal and human text mostly informal; without this, formal human prose read as AI (issue 27).
 * Formal genres share one register (abstracts, papers, lab and clinical reports, textbooks,
 * encyclopedias, legal text, how-to guides): several of them have human text only, and they need
 * AI text of the same register beside them.
 */
const REGISTER_OF_DOMAIN: Record<string, string> = {
  academic: 'formal',
  academic_abstract: 'formal',
  arxiv_abstract: 'formal',
  paper_abstract: 'formal',
  pubmedqa_answers: 'formal',
  qa_biomedical: 'formal',
  peer_review: 'formal',
  student_paper: 'formal',
  student_lab_report: 'formal',
  clinical_case_report: 'formal',
  textbook: 'formal',
  encyclopedic: 'formal',
  wiki: 'formal',
  wikipedia: 'formal',
  legal: 'formal',
  wikihow: 'formal',
  news: 'news',
  news_xsum: 'news',
  essay: 'essay',
  student_essay: 'essay',
  toefl_essay: 'essay',
  learner_essay: 'essay',
  learner_essay_en_use: 'essay',
  learner_essay_es: 'essay',
  argumentative_essay_gre: 'essay',
  argumentative_essay_ood_clec: 'essay',
  argumentative_essay_toefl: 'essay',
  argumentative_essay_weccl: 'essay',
  review: 'review',
  reviews: 'review',
  product_review: 'review',
  game_review: 'review',
  story: 'story',
  stories_writingprompts: 'story',
  fiction_1880_1940: 'story',
  social_post: 'social',
  social_media: 'social',
  tweets: 'social',
  blog: 'social',
  instruction_answer: 'answer',
  qa_answer: 'answer',
  qa_forum: 'answer',
  reddit_eli5: 'answer',
  narrativeqa_qa: 'answer',
  squad1_qa: 'answer',
  truthfulqa_qa: 'answer',
  email: 'email',
  email_content: 'email',
};

/** The register of a row (REGISTER_OF_DOMAIN), `other` for domains that name no single one. */
export function registerOf(row: Pick<Row, 'domain'>): string {
  return REGISTER_OF_DOMAIN[row.domain] ?? 'other';
}
