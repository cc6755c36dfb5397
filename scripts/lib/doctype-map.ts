/** Which document type each dev `domain` should get, where a domain maps to one type (for doc-type accuracy). */
import type { DocType } from '../../src/explain/doctype';

export const DOMAIN_TO_DOCTYPE: Record<string, DocType> = {
  news: 'news',
  news_xsum: 'news',
  student_essay: 'essay',
  learner_essay_en_use: 'essay',
  learner_essay_es: 'essay',
  toefl_essay: 'essay',
  argumentative_essay_gre: 'essay',
  argumentative_essay_ood_clec: 'essay',
  argumentative_essay_toefl: 'essay',
  argumentative_essay_weccl: 'essay',
  arxiv_abstract: 'academic',
  paper_abstract: 'academic',
  pubmedqa_answers: 'academic',
  product_review: 'review',
  game_review: 'review',
  reviews: 'review',
  qa_forum: 'qa_answer',
  reddit_eli5: 'qa_answer',
  instruction_answer: 'qa_answer',
  stories_writingprompts: 'story',
  fiction_1880_1940: 'story',
  email_content: 'email',
  wikipedia: 'reference',
  wikihow: 'technical',
  tweets: 'social_post',
};

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
