/**
 * Per-sentence scores (issue 28): every sentence with words gets a 0-100 score from the decoder's
 * sentence reading, and they agree with the passages: the word-weighted mean of a passage's
 * sentence scores is within 1 point of its score, for texts read as one passage (anchored to the
 * document's score) and for mixed texts alike. The dev split is checked in test/explain/invariants.test.ts.
 */
import { beforeAll, describe, expect, it, setDefaultTimeout } from 'bun:test';
import { SUITE_TIMEOUT_MS } from '../timeout';
import { detectorFor, type DetectorPipeline } from '../../src/detector';
import { anchorSentences } from '../../src/detector/score/segments';
import type { Analysis } from '../../src/detector/types';
import { sharedEngine } from './fixture';
import { AI_EN, AI_ES, HUMAN_EN, HUMAN_EN_2, HUMAN_ES } from './texts';

setDefaultTimeout(SUITE_TIMEOUT_MS);

let detector: DetectorPipeline;
beforeAll(async () => {
  detector = detectorFor(await sharedEngine());
});

/** Word-weighted mean of the sentence scores inside each segment, beside the segment's score. */
function passageMeans(a: Analysis): { score: number; mean: number }[] {
  return a.segments.map((seg) => {
    const inside = a.sentenceScores.filter((s) => s.start >= seg.start && s.end <= seg.end);
    const words = inside.reduce((n, s) => n + s.words, 0);
    return { score: seg.score, mean: inside.reduce((n, s) => n + s.score * s.words, 0) / words };
  });
}

describe('sentence scores', () => {
  it('score every sentence with words, in text order, inside the text, 0-100', () => {
    const a = detector.analyze(HUMAN_EN);
    const r = detector.score(HUMAN_EN);
    expect(a.sentenceScores.length).toBe(r.sentences.filter((s) => s.words > 0).length);
    expect(a.sentenceScores.length).toBeGreaterThan(3);
    let last = -1;
    for (const s of a.sentenceScores) {
      expect(s.start).toBeGreaterThan(last);
      expect(s.end).toBeGreaterThan(s.start);
      expect(s.end).toBeLessThanOrEqual(HUMAN_EN.length);
      expect(Number.isInteger(s.score) && s.score >= 0 && s.score <= 100).toBe(true);
      expect(s.words).toBeGreaterThan(0);
      last = s.start;
    }
    // They cover what the passages cover.
    expect(a.sentenceScores[0].start).toBe(a.segments[0].start);
    expect(a.sentenceScores.at(-1)!.end).toBe(a.segments.at(-1)!.end);
  });

  it('average to the score of a text read as one passage within 1 point, AI and human, English and Spanish', () => {
    for (const text of [AI_EN, AI_ES, HUMAN_EN, HUMAN_EN_2, HUMAN_ES]) {
      const a = detector.analyze(text);
      expect(a.segments.length).toBe(1);
      expect(a.segments[0].score).toBe(a.score);
      const [{ mean }] = passageMeans(a);
      expect(Math.abs(mean - a.score)).toBeLessThan(1);
    }
  });

  it('average to each passage’s score in a mixed text, and read higher in its AI passage', () => {
    const text = `${HUMAN_EN}\n\n${AI_EN}`;
    const a = detector.analyze(text);
    expect(a.segments.map((s) => s.label)).toEqual(['human', 'ai']);
    for (const { score, mean } of passageMeans(a)) expect(Math.abs(mean - score)).toBeLessThan(1);
    const [human, ai] = passageMeans(a);
    expect(ai.mean - human.mean).toBeGreaterThan(30);
  });

  it('are absent exactly when the passages are (a text too short or numeric to judge)', () => {
    const a = detector.analyze('1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22.');
    expect(a.segments).toEqual([]);
    expect(a.sentenceScores).toEqual([]);
  });

  it('anchoring moves every sentence by one shift: order kept, weighted mean on target', () => {
    const sentences = [0.2, 0.5, 0.9].map((probability, i) => ({ start: i * 10, end: i * 10 + 9, words: i + 1, probability }));
    const anchored = anchorSentences(sentences, 0.95);
    const mean = anchored.reduce((n, s) => n + s.probability * s.words, 0) / 6;
    expect(mean).toBeCloseTo(0.95, 9);
    expect(anchored.map((s) => s.probability)).toEqual([...anchored.map((s) => s.probability)].sort((x, y) => x - y));
    expect(anchored[0].probability).toBeGreaterThan(0.2);
    expect(sentences[0].probability).toBe(0.2);
  });
});
