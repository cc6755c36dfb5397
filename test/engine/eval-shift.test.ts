/**
 * `bun run eval --calibration --adapt --shift` (scripts/lib/eval-shift*.ts, issue 43 item 6): the archive's
 * tokenised punctuation the eval rebuilds, the target every other family is held to, and which profiles
 * and writers a kind of writing gives (the profile's own family and the scored one are never in the
 * reference set it is made with).
 */
import { describe, expect, it, setDefaultTimeout } from 'bun:test';
import { SUITE_TIMEOUT_MS } from '../timeout';
import { shiftCases } from '../../scripts/lib/eval-shift-cases';
import { kindOf, type ShiftRecord, tokenised } from '../../scripts/lib/eval-shift-data';
import { targetOf } from '../../scripts/lib/eval-shift-report';
import { tally } from '../../scripts/lib/eval-calibration';

setDefaultTimeout(SUITE_TIMEOUT_MS);

/** `n` records of a family, kind and label (what the cases read of them: family, kind, label, population, group). */
function records(family: string, kind: string | null, y: 0 | 1, n: number): ShiftRecord[] {
  return Array.from({ length: n }, (_, i) => ({
    lang: 0 as const,
    words: 200,
    z: 0,
    y,
    source: family,
    family,
    excerpt: false,
    docType: 'essay' as const,
    group: `${family}:${i}`,
    generator: y ? 'gpt' : null,
    evidence: { grams: new Uint32Array(), style: new Float64Array() },
    population: `en:${family}`,
    kind,
  }));
}

describe('eval --shift', () => {
  it("tokenises an archive's punctuation as the issue's archive had it", () => {
    expect(tokenised("He's sure we didn't, I think; Ana’s dog, too.")).toBe("He' s sure we didn' t , I think; Ana' s dog , too.");
  });

  it('reads the human-only domains that name a kind as that kind', () => {
    expect(kindOf({ domain: 'learner_essay', variant: 'B' })).toBe('essay');
    expect(kindOf({ domain: 'student_essay', variant: null })).toBe('essay');
    expect(kindOf({ domain: 'academic_abstract', variant: null })).toBe('academic');
    expect(kindOf({ domain: 'clinical_case_report', variant: null })).toBeNull();
  });

  it('holds every other family to the model alone plus the margin, or the floor', () => {
    const model = tally();
    model.conservative = { hit: 5, of: 100 };
    model.balanced = { hit: 1, of: 100 };
    model.aggressive = { hit: 20, of: 100 };
    const t = targetOf(model);
    expect(t.conservative).toBeCloseTo(0.06, 9);
    expect(t.balanced).toBeCloseTo(0.04, 9);
    expect(t.aggressive).toBeCloseTo(0.23, 9);
  });

  it('makes a profile of each family with AI texts, scored on every other family of the kind, never in its reference set', () => {
    const all = [
      ...records('native', 'essay', 0, 120),
      ...records('native', 'essay', 1, 120),
      ...records('learners', 'essay', 0, 150),
      ...records('small', 'essay', 0, 40),
      ...records('news', 'news', 0, 150),
      ...records('news', 'news', 1, 150),
    ];
    const cases = shiftCases(all, []);
    const native = cases.filter((c) => c.kind === 'essay' && !c.named);
    expect(native.map((c) => c.name)).toEqual(['native']);
    expect(native[0].targets.map((t) => [t.name, t.texts([]).length, t.exclude])).toEqual([['learners', 150, ['en:learners']]]);
    expect(native[0].exclude).toEqual(['en:native']);
    // One family of news: nothing to score it on.
    expect(cases.some((c) => c.kind === 'news')).toBe(false);
  });
});
