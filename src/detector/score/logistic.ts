/** The logistic function, shared by the scorer, the calibration and the segment decoder. */

/** Standard logistic function. */
export function sigmoid(z: number): number {
  return 1 / (1 + Math.exp(-z));
}
