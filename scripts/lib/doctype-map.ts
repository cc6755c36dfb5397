/**
 * How the data's `domain` labels map to the document types (src/detector/score/doctype.ts). Published in
 * the model card. A domain that does not name one genre is left out of doc-type training and of
 * its accuracy: `unknown` and `mixed` sources, L2R's `other` (dialogues, religious and
 * environmental texts) and `legal` (no legal type), MixSet's speeches, the Write & Improve
 * learner texts (letters, stories and essays under one label), AlpacaEval's instruction answers
 * (an instruction can ask for any genre) and forum questions (not answers).
 */
import type { DocType } from '../../src/detector/score/doctype';
import type { Row } from './data';

export const DOMAIN_TO_DOCTYPE: Record<string, DocType> = {
  news: 'news',
  news_xsum: 'news',
  student_essay: 'essay',
  essay: 'essay',
  learner_essay_en_use: 'essay',
  learner_essay_es: 'essay',
  toefl_essay: 'essay',
  argumentative_essay_gre: 'essay',
  argumentative_essay_ood_clec: 'essay',
  argumentative_essay_toefl: 'essay',
  argumentative_essay_weccl: 'essay',
  academic: 'academic',
  arxiv_abstract: 'academic',
  paper_abstract: 'academic',
  pubmedqa_answers: 'academic',
  review: 'review',
  reviews: 'review',
  product_review: 'review',
  game_review: 'review',
  qa_answer: 'qa_answer',
  qa_forum: 'qa_answer',
  reddit_eli5: 'qa_answer',
  narrativeqa_qa: 'qa_answer',
  squad1_qa: 'qa_answer',
  truthfulqa_qa: 'qa_answer',
  story: 'story',
  stories_writingprompts: 'story',
  fiction_1880_1940: 'story',
  email: 'email',
  email_content: 'email',
  wiki: 'reference',
  wikipedia: 'reference',
  wikihow: 'technical',
  social_post: 'social_post',
  tweets: 'social_post',
  blog: 'social_post',
};

/** The document type a labelled row should get, or null when its domain names no single genre. */
export function docTypeOf(row: Pick<Row, 'domain' | 'variant'>): DocType | null {
  // Forum questions share the qa_forum domain with the answers, but a question is not an answer.
  if (row.variant?.endsWith('_question')) return null;
  return DOMAIN_TO_DOCTYPE[row.domain] ?? null;
}

/** Human sources written by non-native (L2) or heritage writers: their false-positive rate is reported apart. */
export const NON_NATIVE_HUMAN_SOURCES = new Set([
  'wi_learner_essays',
  'cowsl2h_spanish_learner_essays',
  'use_cowsl2h_chatgpt_essays',
  'toefl_chatgpt_rexshijaku',
]);

/** The plain TF-IDF word+char logistic-regression baseline of issue #2 (dev AUROC), for comparison. */
export const BASELINE_AUROC: Record<string, number> = {
  'all/en': 0.953,
  'all/es': 0.968,
  all: 0.958,
  seqxgpt: 0.64,
  fastdetectgpt_gpt34: 0.81,
  autextification2023: 0.88,
};
