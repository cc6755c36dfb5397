/**
 * Sentence calibration: each dev sentence of 5+ words scored on its own n-grams by the shipped
 * engine, labelled with its text's label; Platt scaling per language and, per mode, the sentence
 * probability that the same share of human sentences reaches as the mode's promise for texts.
 * It decides which sentences the lexical fingerprint highlights (src/detector/explain).
 */
import type { Engine } from '../../src/detector/score/engine';
import type { ModelFile } from '../../src/detector/score/model';
import { MODE_FPR, SENSITIVITIES } from '../../src/contract';
import { sigmoid } from '../../src/detector/score/logistic';
import { balancedPlatt, thresholdAt } from './calibrate';
import { round6 } from './metrics';
import type { Row } from './data';

/** Sentences shorter than this are not used to calibrate sentence scores. */
const MIN_SENTENCE_WORDS = 5;

/** Per language: Platt scaling of sentence logits and the per-mode sentence thresholds. */
export function fitSentenceCalibration(
  engine: Engine,
  model: ModelFile,
  dev: Row[],
): Pick<ModelFile, 'sentenceCalibration' | 'sentenceThresholds'> {
  const calibration = { ...model.sentenceCalibration };
  const thresholds = { ...model.sentenceThresholds };
  for (const lang of ['en', 'es'] as const) {
    const z: number[] = [];
    const y: number[] = [];
    for (const row of dev) {
      if (row.lang !== lang) continue;
      for (const s of engine.analyze(row.text, lang).sentences) {
        if (s.words < MIN_SENTENCE_WORDS) continue;
        z.push(s.logit);
        y.push(row.label === 'ai' ? 1 : 0);
      }
    }
    const platt = balancedPlatt(z, y);
    calibration[lang] = { a: round6(platt.a), b: round6(platt.b) };
    const human = z.filter((_, i) => y[i] === 0).map((v) => sigmoid(platt.a * v + platt.b));
    thresholds[lang] = Object.fromEntries(
      SENSITIVITIES.map((m) => [m, round6(thresholdAt(human, MODE_FPR[m]))]),
    ) as ModelFile['sentenceThresholds']['en'];
  }
  return { sentenceCalibration: calibration, sentenceThresholds: thresholds };
}
