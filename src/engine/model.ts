/** The trained model's file format (model/model.json + model/weights.bin) and its loader. */
import type { Sensitivity } from './types';
import type { Gbdt } from './gbdt';

export interface Platt {
  a: number;
  b: number;
}

/** logit = b + wLex * lexical logit + boosted trees over the style features. */
export interface CombinerWeights {
  /** Weight of the lexical logit (positive: the score is monotone in it). */
  wLex: number;
  b: number;
  /** Trees over the style features, in the order of `combiner.features`. */
  style: Gbdt;
}

export type ModeThresholds = Record<Sensitivity, number>;

/** Everything but the weight table; language keys are 'en' and 'es' ('other' reads 'en'). */
export interface ModelFile {
  format: 1;
  featureVersion: number;
  weightBits: number;
  /** int16 weight = round(f32 weight / weightScale). */
  weightScale: number;
  weightsSha256: string;
  trainedWith: { command: string; seed: number; trainFiles: string[] };
  /** Feature channels the scorer was trained with (bits of Channel in assembly/score.ts). */
  channels: number;
  /** Words kept unmasked by the scorer; all others become shape tokens (suffix + length). */
  vocab: { en: string[]; es: string[] };
  /** Function words of the coarse channel; all other words become one placeholder there. */
  funcWords: { en: string[]; es: string[] };
  lexicalBias: { en: number; es: number };
  combiner: { features: string[]; en: CombinerWeights; es: CombinerWeights };
  calibration: { en: Platt; es: Platt };
  sentenceCalibration: { en: Platt; es: Platt };
  /** Minimum calibrated probability for an AI verdict, per language and mode. */
  thresholds: { en: ModeThresholds; es: ModeThresholds };
  /** Per-sentence probability above which a sentence is flagged by the lexical fingerprint, per mode. */
  sentenceThresholds: { en: ModeThresholds; es: ModeThresholds };
  /** Document threshold of each explanation dimension (src/explain/dimensions.ts) per language; null = off there. */
  dimensionThresholds: { en: Record<string, number | null>; es: Record<string, number | null> };
}

/** Decode the int16 weight table into f32 values. */
export function decodeWeights(bytes: Uint8Array, model: ModelFile): Float32Array {
  const n = 1 << model.weightBits;
  if (bytes.byteLength !== n * 2) throw new Error(`model: weights.bin has ${bytes.byteLength} bytes, expected ${n * 2}`);
  const q = new Int16Array(bytes.buffer, bytes.byteOffset, n);
  const out = new Float32Array(n);
  for (let i = 0; i < n; i++) out[i] = q[i] * model.weightScale;
  return out;
}

/** Encode f32 weights as int16 with a shared scale (max |w| maps to 32767). */
export function encodeWeights(w: Float32Array): { bytes: Uint8Array; scale: number } {
  let max = 0;
  for (let i = 0; i < w.length; i++) max = Math.max(max, Math.abs(w[i]));
  const scale = max > 0 ? max / 32767 : 1;
  const q = new Int16Array(w.length);
  for (let i = 0; i < w.length; i++) q[i] = Math.round(w[i] / scale);
  return { bytes: new Uint8Array(q.buffer), scale };
}

/** Standard logistic function. */
export function sigmoid(z: number): number {
  return 1 / (1 + Math.exp(-z));
}
