/** Host mirror of the wasm core's record layouts (assembly/token.ts, assembly/layout.ts: the spec); test/engine/layout.test.ts fails when they differ. */

export const SENT_FEATURES = 20;
export const SENT_WORDS32 = 8; // u32 words per sentence record
export const PARA_WORDS32 = 4;
export const TOKEN_WORDS32 = 5;
/** Token record fields (u32 index within a record) and the word kind in the info field. */
export const TOKEN = { START: 0, END: 1, HASH: 2, SHAPE: 3, INFO: 4 } as const;
export const KIND_MASK = 0xf;
export const KIND_WORD = 1;

/** Sentence record fields (u32 index within a record). */
export const SR = { START: 0, END: 1, TOK0: 2, TOK1: 3, FLAGS: 4, FIRST: 5, FIRST_TWO: 6, PARA: 7 } as const;
/** Paragraph record fields. */
export const PR = { START: 0, END: 1, WORDS: 2, SENTENCES: 3 } as const;
/** Sentence flags. */
export const SentFlag = { HEADING: 1, LIST: 2, QUESTION: 4, EXCLAIM: 8 } as const;

/** Per-sentence feature slots (f32). */
export const SF = {
  WORDS: 0,
  NGRAMS: 1,
  SCORE: 2,
  STOCK: 3,
  TRANSITION: 4,
  OPENS_TRANSITION: 5,
  HEDGE: 6,
  PERSONAL: 7,
  CONTRACTION: 8,
  NUMBERS: 9,
  PROPER: 10,
  VOCAB: 11,
  LONG: 12,
  COMMAS: 13,
  LETTERS: 14,
  DASHES: 15,
  QUESTION_EXCLAIM: 16,
  SEMI_COLON: 17,
  INFORMAL: 18,
  ALLCAPS: 19,
} as const;

/** Document counters (u32). */
export const Doc = {
  WORDS: 0,
  TOKENS: 1,
  SENTENCES: 2,
  PARAGRAPHS: 3,
  LATIN: 4,
  OTHER_SCRIPT: 5,
  HOMOGLYPHS: 6,
  INVISIBLES: 7,
  EN_STOP: 8,
  ES_STOP: 9,
  HEADINGS: 10,
  LIST_ITEMS: 11,
  BOLD: 12,
  LINES: 13,
  NGRAMS: 14,
  FEATS: 15,
  LANG: 16,
  CAP_WORDS: 17,
  SCORE_BITS: 18,
  OTHER_STOP: 19,
  STRAY_INVISIBLES: 20,
} as const;
export const DOC_COUNTERS = 32;
