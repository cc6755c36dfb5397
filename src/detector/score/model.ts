/** The trained model's file format (model/model.json + model/weights.bin) and its loader. */
import type { CellCalibration, ErrorTable, Platt } from './calibration';
import type { SegmentParams } from './segments';
import type { Sensitivity } from '../../contract';

export type { Platt } from './calibration';
export type ModeThresholds = Record<Sensitivity, number>;

/** Everything but the weight table; language keys are 'en' and 'es' ('other' reads 'en'). */
export interface ModelFile {
  /** 2: calibration per (language, length bucket) cell, no style combiner in the score. */
  format: 2;
  featureVersion: number;
  weightBits: number;
  /** Largest |weight|: the scale of the companded int8 weights (see decodeWeights). */
  weightScale: number;
  weightsSha256: string;
  trainedWith: { command: string; seed: number; trainFiles: string[]; commercialOnly?: boolean };
  /** Feature channels the scorer was trained with (bits of Channel in assembly/score.ts). */
  channels: number;
  /** Words kept unmasked by the scorer; all others become shape tokens (suffix + length). */
  vocab: { en: string[]; es: string[] };
  /** Function words of the coarse channel; all other words become one placeholder there. */
  funcWords: { en: string[]; es: string[] };
  lexicalBias: { en: number; es: number };
  /** Per length bucket (src/detector/score/calibration.ts LENGTH_BUCKETS): probability calibration and mode thresholds. */
  cells: { en: CellCalibration[]; es: CellCalibration[] };
  /** The language's threshold per mode, as a held-out logit (the cells store it as each cell's probability). */
  thresholdLogits: { en: ModeThresholds; es: ModeThresholds };
  sentenceCalibration: { en: Platt; es: Platt };
  /** Per-sentence probability above which a sentence is flagged by the lexical fingerprint, per mode. */
  sentenceThresholds: { en: ModeThresholds; es: ModeThresholds };
  /** Mixed-authorship decoder (src/detector/score/segments.ts); null until trained. */
  segments: { en: SegmentParams | null; es: SegmentParams | null };
  /** Held-out human texts flagged per mode, by document type and length (calibration.ts ErrorTable). */
  heldOutErrors: { en: ErrorTable; es: ErrorTable };
  /** Document threshold of each explanation dimension (src/detector/explain/dimensions.ts) per language; null = off there. */
  dimensionThresholds: { en: Record<string, number | null>; es: Record<string, number | null> };
}

/**
 * Weights are stored as one signed byte each with square-root companding: w = sign(q) * (|q|/127)^2 * max.
 * Small weights (most of the table) keep fine steps; 4 MB instead of 8 MB for int16, and calibration
 * and thresholds are measured on the decoded values (scripts/train.ts), so nothing drifts.
 */
const Q_MAX = 127;

/** Decode the int8 weight table into f32 values (`weightScale` is the largest |weight|). */
export function decodeWeights(bytes: Uint8Array, model: ModelFile): Float32Array {
  const n = checkedWeights(bytes, model).length;
  const lut = weightLut(model.weightScale);
  const out = new Float32Array(n);
  for (let i = 0; i < n; i++) out[i] = lut[bytes[i]];
  return out;
}

/** The weight codes, after checking there is one per bucket of the model's table. */
export function checkedWeights(bytes: Uint8Array, model: ModelFile): Uint8Array {
  const n = 1 << model.weightBits;
  if (bytes.byteLength !== n) throw new Error(`model: weights.bin has ${bytes.byteLength} bytes, expected ${n}`);
  return bytes;
}

/** The value of each weight code, indexed by the code's byte (0-255, two's complement): what the wasm core decodes with. */
export function weightLut(scale: number): Float32Array {
  const lut = new Float32Array(256);
  for (let byte = 0; byte < 256; byte++) {
    const v = byte < 128 ? byte : byte - 256;
    lut[byte] = Math.sign(v) * (v / Q_MAX) ** 2 * scale;
  }
  return lut;
}

/** Encode f32 weights as companded int8 (see decodeWeights); `scale` is the largest |weight|. */
export function encodeWeights(w: Float32Array): { bytes: Uint8Array; scale: number } {
  let max = 0;
  for (let i = 0; i < w.length; i++) max = Math.max(max, Math.abs(w[i]));
  const scale = max > 0 ? max : 1;
  const q = new Int8Array(w.length);
  for (let i = 0; i < w.length; i++) q[i] = Math.sign(w[i]) * Math.round(Math.sqrt(Math.abs(w[i]) / scale) * Q_MAX);
  return { bytes: new Uint8Array(q.buffer), scale };
}
