/** A text as an adaptation's fit reads it (./adaptation.ts): the model's logit, its evidence, its group. */
import type { AdaptationEvidence } from '../decide/adaptation';

/** A text the fit reads: the model's logit, the evidence, and its group. */
export interface FitText {
  logit: number;
  evidence: AdaptationEvidence;
  /**
   * Texts of one group go to the same fold of the cross-fit: a reference text's population
   * (referenceFitTexts), near-copies of one of the site's texts (its human texts and AI examples share
   * the numbering; the reference's is its own). Absent: a group of its own.
   */
  group?: number;
}
