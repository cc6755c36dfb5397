/**
 * The detection engine: normalise, run the wasm core, score the text and each sentence with the
 * learned lexical model, calibrate by language and length, and measure the style the explanations read.
 */
import { WasmCore, type WasmCoreOptions } from './wasm';
import { normalizeText, mapSpan } from './normalize';
import { Doc, KIND_MASK, KIND_WORD, PR, SF, SENT_FEATURES, SENT_WORDS32, PARA_WORDS32, SR, TOKEN, TOKEN_WORDS32 } from './layout';
import { LANG_DETECT, LANG_ID, modelLang, type ModelLang, TEXT_LANGS, type TextLang } from '../../contract';
import { mattr, styleFeatures, type ParagraphRecord, type SentenceRecord, type StyleFeatures } from './style';
import { checkedWeights, weightLut, type ModelFile } from './model';
import { sigmoid } from './logistic';
import { calibratedProbability, lexicalLogit } from './probability';
import { aiShareOf, anchorSentences, segmentSentences, type Segment, type SegmentedText, type SentenceScore } from './segments';
import { ABBREVIATIONS, LANG_LEXICONS, LEX_LANG, NEIGHBOUR_STOP, TITLES } from './lexicons';
import { LexBit } from './layout';
import { DOCTYPE_MAX_WORDS, type DocTypeModel } from './doctype';
import { isWholeText, proseView, viewText } from './presentation';

/**
 * Characters of a text's opening read by Engine.firstLanguage(). On the 9,806 dev texts of
 * ../shared/data (3,481 longer than 1,000 characters) the opening's language differed from the whole
 * text's for 1 at 1,000 characters and none at 2,000 or 4,000 (operator's check, issue 44 item 7).
 */
export const FIRST_READING_CHARS = 2000;

/** A sentence with its calibrated probability and offsets into the submitted text. */
export interface ScoredSentence extends SentenceRecord {
  words: number;
  /** The sentence's own lexical logit (its n-grams alone). */
  logit: number;
  /** Calibrated probability from the sentence's own n-grams. */
  probability: number;
}

/** Raw engine output for one text (before verdict and explanations). */
export interface EngineResult {
  language: TextLang;
  probability: number;
  score: number;
  lexicalLogit: number;
  /** Words of the prose the score read (presentation.ts): what picks the calibration cell. */
  scoredWords: number;
  /** Enough prose to judge (MIN_PROSE_WORDS): false caps `probability` at UNJUDGED_PROBABILITY. */
  judged: boolean;
  sentences: ScoredSentence[];
  paragraphs: ParagraphRecord[];
  style: StyleFeatures;
  obfuscation: { invisible: number; homoglyphs: number; compatLetters: number; strayMarks: number };
  markdown: { headings: number; listItems: number; bold: number };
  /** Hashed n-gram indexes in sentence order (only when asked for, for training). */
  feats?: Uint32Array;
  /** Hashes of the first DOCTYPE_MAX_WORDS words (lower-cased), for the document-type model. */
  words: Uint32Array;
  /** Human and AI passages (empty when the model has no decoder for the language). */
  segments: Segment[];
  /** Words in AI passages over all words, 0 to 1. */
  aiShare: number;
  /**
   * The decoder's reading of each sentence with words (empty exactly when `segments` is): in a text
   * of several passages, each passage's score is their word-weighted mean; in a text read as one
   * passage, they are shifted together (anchorSentences) to average to the document's probability.
   */
  sentenceScores: SentenceScore[];
}

/** Fewer words of prose (letters, not numbers) than this and the text is not judged... */
export const MIN_PROSE_WORDS = 10;
/** ...its probability is capped here: even odds, so at most `inconclusive`, never an AI verdict. */
export const UNJUDGED_PROBABILITY = 0.5;

/** The loaded engine; one instance per process (it is synchronous and not re-entrant). */
export class Engine {
  readonly core: WasmCore;
  readonly model: ModelFile;
  /** Document-type model (null while training it). */
  readonly docTypes: DocTypeModel | null;
  /** Scratch buffer for word hashes (reused: no allocation per call). */
  private wordHashes = new Uint32Array(4096);

  private constructor(core: WasmCore, model: ModelFile, docTypes: DocTypeModel | null) {
    this.core = core;
    this.model = model;
    this.docTypes = docTypes;
  }

  /**
   * Build an engine from the wasm bytes, the model metadata and its int16 weights (null = zeros, for
   * training); `options.maxTextChars` bounds a text once normalised (TextTooLongError past it).
   */
  static async create(
    wasm: Uint8Array | ArrayBuffer,
    model: ModelFile,
    weights: Uint8Array | null,
    docTypes: DocTypeModel | null = null,
    options: WasmCoreOptions = {},
  ): Promise<Engine> {
    const core = await WasmCore.create(wasm, model.weightBits, options);
    if (core.featureVersion() !== model.featureVersion) {
      throw new Error(
        `model was trained with feature version ${model.featureVersion}, the wasm core has ${core.featureVersion()}: run bun run train`,
      );
    }
    core.setChannels(model.channels);
    if (weights) core.setWeights(checkedWeights(weights, model), weightLut(model.weightScale));
    loadLexicons(core, model);
    return new Engine(core, model, docTypes);
  }

  /**
   * A first reading of a text's language: the core's stop-word count (assembly/score.ts
   * detectLanguage) over its opening FIRST_READING_CHARS characters, cut at a space, with none of
   * analyze()'s other stages. About a seventh of a profile sample's cost for a 3.7 KB text, and
   * bounded whatever the text's length (a calibration checks its languages with it before scoring, issue 44).
   */
  firstLanguage(text: string): TextLang {
    let head = text;
    if (text.length > FIRST_READING_CHARS) {
      const space = text.lastIndexOf(' ', FIRST_READING_CHARS);
      head = text.slice(0, space > FIRST_READING_CHARS / 2 ? space : FIRST_READING_CHARS);
    }
    const { views } = this.core.analyze(normalizeText(head).text, LANG_DETECT);
    return TEXT_LANGS[views.doc[Doc.LANG]];
  }

  /** Score a text. `lang` forces the scoring language and `emit` returns the n-gram indexes (training). */
  analyze(text: string, lang?: TextLang, emit = false): EngineResult {
    const norm = normalizeText(text);
    // The score reads the prose without its presentation (title lines, headings, list marks, line
    // breaks, a cut-off last sentence); sentences, paragraphs and style read the text as sent. The
    // core reads both in one pass (assembly/prose.ts).
    const view = proseView(norm.text);
    const { sentences: n, views } = this.core.analyze(
      norm.text,
      lang ? LANG_ID[lang] : LANG_DETECT,
      emit,
      isWholeText(norm.text, view) ? null : view,
    );
    const language = lang ?? TEXT_LANGS[views.doc[Doc.LANG]];
    const ml = modelLang(language);
    const bias = this.model.lexicalBias[ml];
    const sc = this.model.sentenceCalibration[ml];
    const sentences: ScoredSentence[] = new Array(n);
    // One copy of all sentence features (wasm memory is reused by the next call); views into it per sentence.
    const feats = views.sentFeatures.slice(0, n * SENT_FEATURES);
    for (let s = 0; s < n; s++) {
      const r = s * SENT_WORDS32;
      const f = feats.subarray(s * SENT_FEATURES, (s + 1) * SENT_FEATURES);
      const [start, end] = mapSpan(norm.map, views.sentences[r + SR.START], views.sentences[r + SR.END]);
      const lex = lexicalLogit(f[SF.SCORE], f[SF.NGRAMS], bias);
      sentences[s] = {
        start,
        end,
        f,
        flags: views.sentences[r + SR.FLAGS],
        first: views.sentences[r + SR.FIRST],
        firstTwo: views.sentences[r + SR.FIRST_TWO],
        paragraph: views.sentences[r + SR.PARA],
        words: f[SF.WORDS],
        logit: lex,
        probability: sigmoid(sc.a * lex + sc.b),
      };
    }
    const nPara = views.doc[Doc.PARAGRAPHS];
    const paragraphs: ParagraphRecord[] = new Array(nPara);
    for (let p = 0; p < nPara; p++) {
      const r = p * PARA_WORDS32;
      const [start, end] = mapSpan(norm.map, views.paragraphs[r + PR.START], views.paragraphs[r + PR.END]);
      paragraphs[p] = { start, end, words: views.paragraphs[r + PR.WORDS], sentences: views.paragraphs[r + PR.SENTENCES] };
    }
    const markdown = { headings: views.doc[Doc.HEADINGS], listItems: views.doc[Doc.LIST_ITEMS], bold: views.doc[Doc.BOLD] };
    const nWords = this.collectWords(views.tokens, views.doc[Doc.TOKENS]);
    const style = styleFeatures(
      sentences,
      paragraphs,
      markdown.headings + markdown.listItems + markdown.bold,
      mattr(this.wordHashes, nWords),
    );
    const obfuscation = {
      invisible: views.doc[Doc.INVISIBLES],
      homoglyphs: views.doc[Doc.HOMOGLYPHS],
      compatLetters: norm.compatLetters,
      strayMarks: norm.strayMarks,
    };
    const words = this.wordHashes.slice(0, Math.min(nWords, DOCTYPE_MAX_WORDS));
    // Rarely, the core cannot read the view inside the text (a token a piece cuts, a line-start mark
    // kept in it): it then scores the view's own text. Everything of the first pass is copied out
    // above: the second call reuses the core's memory.
    const unread = views.doc[Doc.VIEW_UNREAD] === 1;
    const scored = unread ? this.core.analyze(viewText(norm.text, view), LANG_ID[language], emit).views : views;
    const docScore = new Float32Array(scored.doc.buffer, scored.doc.byteOffset + Doc.SCORE_BITS * 4, 1)[0];
    const lexical = lexicalLogit(docScore, scored.doc[Doc.NGRAMS], bias);
    const scoredWords = scored.doc[Doc.VIEW_WORDS];
    const emitted = emit ? scored.feats.slice(0, scored.doc[Doc.FEATS]) : undefined;
    // Numbers, code or a few words carry too little prose to judge: never call them AI.
    const calibrated = this.calibrate(lexical, scoredWords, ml);
    const judged = proseWordCount(sentences) >= MIN_PROSE_WORDS;
    const probability = judged ? calibrated : Math.min(calibrated, UNJUDGED_PROBABILITY);
    const decoder = this.model.segments[ml];
    const read: SegmentedText =
      decoder && judged ? segmentSentences(sentences.map(segmentInput), lexical, decoder) : { segments: [], sentences: [] };
    const segments = read.segments;
    const score = Math.round(probability * 100);
    // A text read as one passage is that passage: its score is the document's (the calibrated one), not the
    // decoder's mean, and its sentences are anchored to that score so that they still average to it.
    if (segments.length === 1) segments[0].score = score;
    const sentenceScores = segments.length === 1 ? anchorSentences(read.sentences, probability) : read.sentences;
    return {
      language,
      probability,
      score,
      lexicalLogit: lexical,
      scoredWords,
      judged,
      sentences,
      paragraphs,
      style,
      obfuscation,
      markdown,
      feats: emitted,
      words,
      segments,
      aiShare: aiShareOf(segments),
      sentenceScores,
    };
  }

  /** Copy the word hashes of the last analysis into the scratch buffer; returns how many. */
  private collectWords(tokens: Uint32Array, count: number): number {
    if (this.wordHashes.length < count) this.wordHashes = new Uint32Array(count * 2);
    let n = 0;
    for (let t = 0; t < count; t++) {
      const r = t * TOKEN_WORDS32;
      if ((tokens[r + TOKEN.INFO] & KIND_MASK) === KIND_WORD) this.wordHashes[n++] = tokens[r + TOKEN.HASH];
    }
    return n;
  }

  /**
   * Calibrated probability: the Platt scaling of the text's (language, length) cell, fitted on
   * held-out sources. Style measures explain the score but are not in it: a combiner over them
   * learned each source's conventions and lost 0.02-0.5 AUROC on sources it had not seen (model card).
   */
  calibrate(lexicalLogit: number, words: number, ml: ModelLang): number {
    return calibratedProbability(this.model, ml, lexicalLogit, words);
  }
}

/** What the mixed-authorship decoder reads of a sentence. */
export function segmentInput(s: ScoredSentence) {
  return { start: s.start, end: s.end, words: s.words, logit: s.logit, grams: s.f[SF.NGRAMS] };
}

/** Letters changed inside words (look-alikes, invisible characters between letters, disguised compatibility letters, stray combining marks): obfuscation. */
export function changedLetters(r: Pick<EngineResult, 'obfuscation'>): number {
  return r.obfuscation.invisible + r.obfuscation.homoglyphs + r.obfuscation.compatLetters + r.obfuscation.strayMarks;
}

/** Words of a text that are not numbers (letters, CJK). */
export function proseWordCount(sentences: SentenceRecord[]): number {
  let n = 0;
  for (const s of sentences) n += s.f[SF.WORDS] - s.f[SF.NUMBERS];
  return n;
}

/** Load stop words, abbreviations, style lexicons and the masking vocabulary into the core. */
function loadLexicons(core: WasmCore, model: ModelFile): void {
  const add = (phrases: string[], lang: number, bit: number) => {
    for (const p of phrases) if (!core.addPhrase(p, lang, bit)) throw new Error(`lexicon full or empty phrase: ${p}`);
  };
  add(ABBREVIATIONS, LEX_LANG.any, LexBit.ABBREV);
  add(TITLES, LEX_LANG.any, LexBit.TITLE);
  add(NEIGHBOUR_STOP, LEX_LANG.any, LexBit.STOP);
  for (const lang of ['en', 'es'] as const) {
    const id = LEX_LANG[lang];
    for (const [lists, bit] of LANG_LEXICONS) add(lists[lang], id, bit);
    add(model.vocab[lang], id, LexBit.VOCAB);
    add(model.funcWords[lang], id, LexBit.FUNC);
  }
}
