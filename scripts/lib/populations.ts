/**
 * The populations of reference human writers (issue 43 item 1; src/detector/decide/reference.ts): one
 * source family of the shared data (data.ts familyOf) in one language, id `<lang>:<family>`, with what a
 * person reads about who wrote them. The labels come from ../shared/data/MANIFEST.md's notes on each
 * source (who wrote the human texts, when, of which kind); a family's label can differ by language
 * (`use_cowsl2h_chatgpt_essays`' English essays are held out with COWSL2H's Spanish ones, data.ts).
 */
import type { ModelLang } from '../../src/contract';

/** A population's id: `<lang>:<family>`. */
export const populationId = (lang: ModelLang, family: string): string => `${lang}:${family}`;

/** What a person reads about each population, in English (MANIFEST.md). */
export const POPULATION_LABELS: Readonly<Record<string, string>> = {
  'en:wi_learner_essays': 'second-language learner essays, letters and stories (Write & Improve, CEFR A1-C2)',
  'en:cowsl2h_spanish_learner_essays': 'argumentative essays by Swedish university students of English (second language)',
  'en:toefl_chatgpt_rexshijaku': 'TOEFL sample essays (second-language test takers)',
  'en:outfox_essays': 'US school students’ persuasive essays (native)',
  'en:micusp_native_student_papers': 'native university students’ papers (MICUSP)',
  'en:swp_biology_lab_reports': 'university students’ biology lab reports',
  'en:bbc_news_2005': 'news articles (BBC, 2004-2005)',
  'en:pan24_news_2021': 'news articles (US, 2021)',
  'en:fastdetectgpt_gpt34': 'news summaries, WritingPrompts stories and biomedical answers (XSum, WritingPrompts, PubMedQA)',
  'en:scitldr_abstracts': 'research paper abstracts (computer science)',
  'en:lu_thesis_abstracts_gpt35': 'university thesis abstracts',
  'en:openstax_textbooks': 'textbook passages (OpenStax)',
  'en:xquad_wikipedia': 'encyclopedia paragraphs (Wikipedia)',
  'en:m4_llama2': 'encyclopedia articles, how-to guides, ELI5 answers and paper abstracts (Wikipedia, wikiHow, Reddit, arXiv)',
  'en:stackexchange_coffee_beer': 'Q&A forum questions and answers (Stack Exchange)',
  'en:tweeteval_tweets_en': 'tweets',
  'en:l2r_rewrites_2024': 'texts of many kinds: abstracts, reviews, stories, legal opinions, dialogues (L2R)',
  'en:mixset_pure': 'blog posts, emails, speeches, game reviews, news and abstracts (MixSet)',
  'en:seqxgpt': 'abstracts, news, film reviews and stories, some lower-cased and tokenised (SeqXGPT)',
  'es:cowsl2h_spanish_learner_essays': 'Spanish essays by second-language and heritage learners (COWSL2H)',
  'es:amazon_reviews_es': 'Spanish product reviews (Amazon)',
  'es:spanish_fake_news_corpus': 'Spanish news, true and fake (Spain and Latin America)',
  'es:diario_madrid_llm_simplified_es': 'Spanish historical newspaper passages (Diario de Madrid, old spelling)',
  'es:cligs_spanish_fiction': 'Spanish and Spanish-American fiction (1880-1940)',
  'es:codiesp_clinical_cases_es': 'Spanish clinical case reports',
  'es:scielo_abstracts_es': 'Spanish health and biology research abstracts (SciELO)',
  'es:xquad_wikipedia': 'Spanish encyclopedia paragraphs (translated from Wikipedia)',
  'es:intertass_tweets_es': 'Spanish tweets',
  'es:imbd': 'Spanish web texts, cut at a word limit (ImBD)',
};

/**
 * Families that are no population of reference writers. AuTexTification's human texts are cuts the
 * task's organisers made (fixed length, most cut mid-sentence on both sides, apostrophes removed:
 * MANIFEST.md) of an unnamed mix of domains: no writer writes like that, and a guard protecting them
 * would protect the organisers' artifacts, not a group of people (the model never trains on them either,
 * data.ts UNTRAINED_FAMILIES).
 */
export const NOT_A_POPULATION: ReadonlySet<string> = new Set(['autextification2023']);

/** The label of a population, or (a family this file does not know yet) its id made readable. */
export function populationLabel(id: string): string {
  return POPULATION_LABELS[id] ?? id.replace(/^[a-z]+:/, '').replace(/_/g, ' ');
}
