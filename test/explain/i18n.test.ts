/**
 * Localisation (issue #3 item 6): en and es catalogues have the same keys and no empty values; the
 * caller's label language drives every label of the analysis (verdict, docTypeLabel, dimension
 * labels, annotation dims, bullet texts); unknown label languages fall back to English; the text's
 * own language is independent of the label language.
 */
import { beforeAll, describe, expect, it, setDefaultTimeout } from 'bun:test';
import { SUITE_TIMEOUT_MS } from '../timeout';
import type { Analysis, Detector } from '../../src/detector/types';
import type { LabelLang } from '../../src/contract';
import { DOC_TYPES } from '../../src/detector/explain';
import { messages, t } from '../../src/i18n';
import { en } from '../../src/i18n/en';
import { es } from '../../src/i18n/es';
import { sharedDetector } from '../engine/fixture';
import { AI_EN, AI_ES, HUMAN_EN, HUMAN_ES } from '../engine/texts';
import { EXAMPLES } from './examples';

setDefaultTimeout(SUITE_TIMEOUT_MS);

let detector: Detector;
beforeAll(async () => {
  detector = await sharedDetector();
});

/** Every leaf of a nested catalogue, as [dotted path, value]. */
function leaves(node: unknown, prefix = ''): Array<[string, unknown]> {
  if (typeof node !== 'object' || node === null) return [[prefix, node]];
  return Object.entries(node).flatMap(([k, v]) => leaves(v, prefix ? `${prefix}.${k}` : k));
}
const holes = (s: string) => (s.match(/\{\w+(?=[},])/g) ?? []).sort();

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
/** A template as a regular expression: `{name}` matches anything, a plural form matches any of its branches. */
const pattern = (tpl: string) => {
  const parts: string[] = [];
  let rest = tpl;
  for (const m of tpl.matchAll(/\{\w+, plural,((?:\s*\w+ \{[^{}]*\})+)\s*\}/g)) {
    const [before, after] = rest.split(m[0]);
    parts.push(escapeRegExp(before).replace(/\\\{\w+\\\}/g, '.+?'));
    parts.push(`(?:${[...m[1].matchAll(/\w+ \{([^{}]*)\}/g)].map((b) => escapeRegExp(b[1]).replace(/#/g, '\\d+')).join('|')})`);
    rest = after;
  }
  parts.push(escapeRegExp(rest).replace(/\\\{\w+\\\}/g, '.+?'));
  return new RegExp(`^${parts.join('')}$`);
};
const isBulletOf = (text: string, catalogue: typeof en) => Object.values(catalogue.bullets).some((tpl) => pattern(tpl).test(text));

const TEXTS = [AI_EN, AI_ES, HUMAN_EN, HUMAN_ES, EXAMPLES.chat_formatting.en.positive, EXAMPLES.obfuscation.es.positive];

/** Every label of an analysis must come from `catalogue`. */
function expectLabelsFrom(a: Analysis, catalogue: typeof en): void {
  expect(a.verdict).toBe(catalogue.verdicts[a.verdictKey]);
  expect(a.docTypeLabel).toBe((catalogue.docTypes as Record<string, string>)[a.docType]);
  const dims = catalogue.dimensions as Record<string, string>;
  for (const d of a.dimensions) expect(d.label).toBe(dims[d.id]);
  for (const ann of a.textAnnotations) for (const d of ann.dims) expect(d.label).toBe(dims[d.id]);
  for (const b of a.bullets)
    expect({ bullet: b.text, fromCatalogue: isBulletOf(b.text, catalogue) }).toEqual({ bullet: b.text, fromCatalogue: true });
}

describe('catalogues', () => {
  it('have exactly the same keys in English and Spanish (deep)', () => {
    expect(
      leaves(es)
        .map(([k]) => k)
        .sort(),
    ).toEqual(
      leaves(en)
        .map(([k]) => k)
        .sort(),
    );
  });

  it('have no empty values', () => {
    for (const catalogue of [en, es]) {
      for (const [path, value] of leaves(catalogue)) {
        expect({ path, type: typeof value }).toEqual({ path, type: 'string' });
        expect({ path, empty: (value as string).trim() === '' }).toEqual({ path, empty: false });
      }
    }
  });

  it('use the same placeholders in both languages', () => {
    const spanish = new Map(leaves(es));
    for (const [path, value] of leaves(en))
      expect({ path, holes: holes(spanish.get(path) as string) }).toEqual({ path, holes: holes(value as string) });
  });

  it('translate every verdict, document type, dimension and bullet', () => {
    for (const section of ['verdicts', 'docTypes', 'dimensions', 'bullets'] as const) {
      for (const [key, english] of Object.entries(en[section])) {
        expect({ key, same: (es[section] as Record<string, string>)[key] === english }).toEqual({ key, same: false });
      }
    }
  });

  it('have a label for every verdict key and document type', () => {
    for (const type of DOC_TYPES) {
      expect((en.docTypes as Record<string, string>)[type]).toBeString();
      expect((es.docTypes as Record<string, string>)[type]).toBeString();
    }
  });
});

describe('label language', () => {
  it('gives Spanish labels everywhere for a Spanish request', () => {
    for (const text of TEXTS) {
      for (const sensitivity of ['conservative', 'aggressive'] as const) {
        const a = detector.analyze(text, { labelLang: 'es', sensitivity });
        expectLabelsFrom(a, es);
        for (const b of a.bullets) expect(isBulletOf(b.text, en)).toBe(false);
      }
    }
  });

  it('gives English labels everywhere for an English request and by default', () => {
    for (const text of TEXTS) {
      expectLabelsFrom(detector.analyze(text, { labelLang: 'en', sensitivity: 'aggressive' }), en);
      expectLabelsFrom(detector.analyze(text), en);
    }
  });

  it('does not change keys, scores or offsets, only labels', () => {
    for (const text of TEXTS) {
      const a = detector.analyze(text, { labelLang: 'en', sensitivity: 'aggressive' });
      const b = detector.analyze(text, { labelLang: 'es', sensitivity: 'aggressive' });
      expect(b.score).toBe(a.score);
      expect(b.verdictKey).toBe(a.verdictKey);
      expect(b.docType).toBe(a.docType);
      expect(b.language).toBe(a.language);
      expect(b.dimensions.map((d) => [d.id, d.detected])).toEqual(a.dimensions.map((d) => [d.id, d.detected]));
      expect(b.textAnnotations.map((x) => [x.start, x.end, x.sentence, x.dims.map((d) => d.id)])).toEqual(
        a.textAnnotations.map((x) => [x.start, x.end, x.sentence, x.dims.map((d) => d.id)]),
      );
      expect(b.bullets.map((x) => [x.start, x.end, x.example])).toEqual(a.bullets.map((x) => [x.start, x.end, x.example]));
    }
  });

  it('is independent of the language of the text', () => {
    expect(detector.analyze(AI_ES, { labelLang: 'en' }).language).toBe('es');
    expectLabelsFrom(detector.analyze(AI_ES, { labelLang: 'en' }), en);
    expect(detector.analyze(AI_EN, { labelLang: 'es' }).language).toBe('en');
    expectLabelsFrom(detector.analyze(AI_EN, { labelLang: 'es' }), es);
  });

  it('falls back to English for an unknown label language', () => {
    const strip = ({ msCost: _, ...rest }: Analysis) => rest;
    for (const unknown of ['fr', 'de', 'EN', '', 'es-MX', 'xx'] as unknown as LabelLang[]) {
      for (const text of [AI_EN, AI_ES]) {
        const a = detector.analyze(text, { labelLang: unknown, sensitivity: 'aggressive' });
        expectLabelsFrom(a, en);
        expect(strip(a)).toEqual(strip(detector.analyze(text, { labelLang: 'en', sensitivity: 'aggressive' })));
      }
      expect(messages(unknown)).toBe(en);
      expect(t(unknown, 'verdicts.ai')).toBe(en.verdicts.ai);
    }
  });

  it('falls back to English labels for label languages that are Object.prototype keys', () => {
    for (const unknown of ['constructor', '__proto__', 'toString'] as unknown as LabelLang[]) {
      expectLabelsFrom(detector.analyze(AI_EN, { labelLang: unknown }), en);
      expect(t(unknown, 'verdicts.ai')).toBe(en.verdicts.ai);
    }
  });

  // BUG (reported to the lead, minor): messages() does CATALOGUES[lang] ?? en, so a prototype key
  // returns Object's constructor or prototype instead of the English catalogue (t() still falls back
  // to English per string, so labels are right). Object.hasOwn(CATALOGUES, lang) fixes it.
  it('messages() returns the English catalogue for any unknown language', () => {
    for (const unknown of ['constructor', '__proto__', 'toString'] as unknown as LabelLang[]) expect(messages(unknown)).toBe(en);
  });

  it('fills placeholders in Spanish and returns the key itself when no catalogue has it', () => {
    expect(t('es', 'verdicts.ai')).toBe(es.verdicts.ai);
    expect(t('es', 'bullets.lexical_ai', { percent: 87 })).toBe(es.bullets.lexical_ai.replace('{percent}', '87'));
    expect(t('es', 'no.such.key')).toBe('no.such.key');
  });
});
