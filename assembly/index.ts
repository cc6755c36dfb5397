// Exports of the wasm core. The host writes UTF-16 text at textPtr and calls analyze(); results
// are read through typed-array views of linear memory (see src/engine/wasm.ts).
import * as L from './layout';
import { tokenize, phraseHash, phraseWords, phraseFirstWord, tokenCount } from './tokenize';
import { scoreSentences, detectLanguage, viewLanguage } from './score';
import { viewIsText, viewUnread, viewWords } from './prose';
export { setChannels } from './score';
import { Lex, lexAdd, langSalt } from './lexicon';
import { Doc, FEATURE_VERSION } from './token';

export { setupTables, reserveText } from './layout';
export { tokenCount };

/** Version of tokenization and feature hashing; a model records the version it was trained with. */
export function featureVersion(): u32 {
  return FEATURE_VERSION;
}

/**
 * Analyse text[0, n): tokenize, pick the language (or use `lang` when < 2... 3 = detect), score.
 * The document score reads the prose view: `pieces` [start, end) pairs at viewPtr (or WHOLE: the
 * text itself), closed by a full stop when `close` (prose.ts). Returns the number of sentences.
 */
export function analyze(n: u32, lang: u32, emit: bool, pieces: u32, close: bool): u32 {
  const sentences = tokenize(n, pieces, close);
  const detected = detectLanguage();
  L.docSet(Doc.LANG, detected);
  const scoring = lang < 2 ? lang : detected == 1 ? 1 : 0;
  // The view is read in the text's language; when that is none (other), in the view's own: what a
  // pass over the view's text, told the text's language, reads.
  const textLang = lang < 3 ? lang : detected;
  const viewLang = textLang < 2 ? textLang : viewLanguage() == 1 ? 1 : 0;
  scoreSentences(sentences, scoring, viewLang, emit);
  L.docSet(Doc.VIEW_WORDS, viewIsText() ? L.docGet(Doc.WORDS) : viewWords());
  L.docSet(Doc.VIEW_UNREAD, viewUnread() ? 1 : 0);
  return sentences;
}

/** Add category `bits` for the phrase text[0, n) in language `lang` (0 en, 1 es, 2 any). */
export function addPhrase(n: u32, lang: u32, bits: u32): bool {
  const h = phraseHash(n);
  if (h == 0) return false;
  if (phraseWords() > 1 && !lexAdd(phraseFirstWord() ^ langSalt(lang), Lex.PHRASE_START)) return false;
  return lexAdd(h ^ langSalt(lang), bits);
}

export function textPtr(): usize {
  return L.textPtr;
}
export function textCap(): u32 {
  return L.textCap;
}
export function weightsPtr(): usize {
  return L.weightsPtr;
}
export function lutPtr(): usize {
  return L.lutPtr;
}
export function tokPtr(): usize {
  return L.tokPtr;
}
export function sentPtr(): usize {
  return L.sentPtr;
}
export function sentFeatPtr(): usize {
  return L.sentFeatPtr;
}
export function paraPtr(): usize {
  return L.paraPtr;
}
export function docPtr(): usize {
  return L.docPtr;
}
export function featPtr(): usize {
  return L.featPtr;
}
export function viewPtr(): usize {
  return L.viewPtr;
}
