/** A stand-in detector for HTTP tests that need fixed answers (the real one is src/detector, createDetector). */
import type { Analysis, AnalyzeOptions, Detector } from '../../src/detector/types';

const WORD = /[\p{L}\p{N}]+(?:['’-][\p{L}\p{N}]+)*/gu;

/** Word counting by the shared definition, fixed analysis otherwise. */
export function testDetector(): Detector {
  const countWords = (text: string) => text.match(WORD)?.length ?? 0;
  return {
    countWords,
    // A fixed score per text: a profile made with it has one threshold for every text.
    profileSample: (text) =>
      countWords(text) < 20 ? null : { lang: 'en', logit: 0, probability: 0.5, words: countWords(text), docType: 'essay' },
    analyze(text: string, options: AnalyzeOptions = {}): Analysis {
      const es = options.labelLang === 'es';
      return {
        score: 50,
        probability: 0.5,
        verdictKey: 'inconclusive',
        verdict: es ? 'Evidencia insuficiente' : 'Not enough evidence',
        ai: false,
        language: 'en',
        sensitivity: options.sensitivity ?? 'conservative',
        docType: 'essay',
        docTypeLabel: es ? 'Ensayo' : 'Essay',
        totalDimensions: 1,
        activeDimensions: 1,
        dimensions: [{ id: 'x', label: es ? 'equis' : 'ex', detected: true, enabled: true }],
        textAnnotations: [{ sentence: text.slice(0, 10), start: 0, end: 10, dims: [{ id: 'x', label: 'ex' }] }],
        bullets: [{ id: 'x', leaning: 'neutral', text: 'b', example: text.slice(0, 5), start: 0, end: 5 }],
        segments: [],
        aiShare: 0,
        measuredError: {
          humanFlaggedRate: 0.01,
          humanTexts: 100,
          upperBound: 0.045,
          source: 'model',
          docType: null,
          words: null,
          text: 'x',
        },
        calibration: null,
        sentenceScores: [],
        words: countWords(text),
        msCost: 0.1,
      };
    },
  };
}
