// Token kinds, token info bits, sentence flags and document counters shared by the passes.
// Mirrored on the host side in src/engine/layout.ts: change both together (and FEATURE_VERSION).

/** Bumped whenever tokenization or feature hashing changes; the model records the version it was trained with. */
export const FEATURE_VERSION: u32 = 6;

export namespace Kind {
  export const WORD: u32 = 1;
  export const NUM: u32 = 2;
  export const PUNCT: u32 = 3;
  export const SYMBOL: u32 = 4;
  export const MARKUP: u32 = 5;
  export const CJK: u32 = 6;
}

/** Bits of a token's info word; bits 16-23 hold the letter count (capped at 255). */
export namespace Info {
  export const KIND_MASK: u32 = 0xf;
  export const CAP: u32 = 1 << 4;
  export const ALLCAPS: u32 = 1 << 5;
  export const APOS: u32 = 1 << 6;
  export const LINE_START: u32 = 1 << 7;
  export const HOMOGLYPH: u32 = 1 << 8;
  export const INVISIBLE: u32 = 1 << 9;
  export const LOWER_START: u32 = 1 << 10;
  /** The token is in the prose view the document score reads (assembly/prose.ts). */
  export const IN_VIEW: u32 = 1 << 11;
  /** The token opens a sentence of the prose view (the score's n-grams start afresh there). */
  export const VIEW_START: u32 = 1 << 12;
  export const LETTERS_SHIFT: u32 = 16;
}

/** Sentence flags. */
export namespace SentFlag {
  export const HEADING: u32 = 1;
  export const LIST: u32 = 2;
  export const QUESTION: u32 = 4;
  export const EXCLAIM: u32 = 8;
}

/** Per-document counters (indexes into the doc counter area). */
export namespace Doc {
  export const WORDS: u32 = 0;
  export const TOKENS: u32 = 1;
  export const SENTENCES: u32 = 2;
  export const PARAGRAPHS: u32 = 3;
  export const LATIN: u32 = 4;
  export const OTHER_SCRIPT: u32 = 5;
  export const HOMOGLYPHS: u32 = 6;
  export const INVISIBLES: u32 = 7;
  export const EN_STOP: u32 = 8;
  export const ES_STOP: u32 = 9;
  export const HEADINGS: u32 = 10;
  export const LIST_ITEMS: u32 = 11;
  export const BOLD: u32 = 12;
  export const LINES: u32 = 13;
  export const NGRAMS: u32 = 14;
  export const FEATS: u32 = 15;
  export const LANG: u32 = 16;
  export const CAP_WORDS: u32 = 17;
  export const SCORE_BITS: u32 = 18;
  export const OTHER_STOP: u32 = 19;
  /** Invisible characters between words (only those inside words count as INVISIBLES). */
  export const STRAY_INVISIBLES: u32 = 20;
  /** Words (and numbers) of the prose view: what the document score read. */
  export const VIEW_WORDS: u32 = 21;
  /**
   * 1 when this pass could not read the prose view inside the text (a token the view cuts, a line
   * break or a line-start mark inside it, script counts that change the look-alike reading): the
   * document score is then the text's own, and the host scores the view's text instead.
   */
  export const VIEW_UNREAD: u32 = 22;
}

/** Per-sentence feature slots. */
export namespace SF {
  export const WORDS: u32 = 0;
  export const NGRAMS: u32 = 1;
  export const SCORE: u32 = 2;
  export const STOCK: u32 = 3;
  export const TRANSITION: u32 = 4;
  export const OPENS_TRANSITION: u32 = 5;
  export const HEDGE: u32 = 6;
  export const PERSONAL: u32 = 7;
  export const CONTRACTION: u32 = 8;
  export const NUMBERS: u32 = 9;
  export const PROPER: u32 = 10;
  export const VOCAB: u32 = 11;
  export const LONG: u32 = 12;
  export const COMMAS: u32 = 13;
  export const LETTERS: u32 = 14;
  export const DASHES: u32 = 15;
  export const QUESTION_EXCLAIM: u32 = 16;
  export const SEMI_COLON: u32 = 17;
  export const INFORMAL: u32 = 18;
  export const ALLCAPS: u32 = 19;
}

/** Sentence record offsets (bytes). */
export namespace SR {
  export const START: u32 = 0;
  export const END: u32 = 4;
  export const TOK0: u32 = 8;
  export const TOK1: u32 = 12;
  export const FLAGS: u32 = 16;
  export const FIRST: u32 = 20;
  export const FIRST_TWO: u32 = 24;
  export const PARA: u32 = 28;
}
/** Paragraph record offsets (bytes). */
export namespace PR {
  export const START: u32 = 0;
  export const END: u32 = 4;
  export const WORDS: u32 = 8;
  export const SENTENCES: u32 = 12;
}
