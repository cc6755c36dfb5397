/**
 * Document type (issue #3 item 5): always one key of the fixed set, with its localized label; the
 * layout rules (letters, bullet lists) and the short-text fallback. The learned part (naive Bayes on
 * the data's domains) is measured by `bun run eval`, not pinned here.
 */
import { beforeAll, describe, expect, it, setDefaultTimeout } from 'bun:test';
import { SUITE_TIMEOUT_MS } from '../timeout';
import type { Detector } from '../../src/detector/types';
import { DOC_TYPES } from '../../src/detector/explain';
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

const LETTER_EN = `Dear Mr Smith,\n\nThank you for your letter of 3 May. I am writing to confirm that the documents you requested will be sent to your office by the end of next week.\n\nBest regards,\nAnna Jones`;
const LETTER_ES = `Estimada Sra. López:\n\nLe escribo para confirmar que los documentos que solicitó se enviarán a su oficina antes del final de la próxima semana.\n\nUn cordial saludo,\nAna Jiménez`;
const NOTES = `- buy milk and eggs\n- call the plumber about the sink\n- pay the electricity bill\n- book the dentist for Tuesday\n- pick up the kids at four`;

describe('document type', () => {
  it('is always a key of the fixed set, with the label of the requested language', () => {
    const texts = [AI_EN, AI_ES, HUMAN_EN, HUMAN_ES, LETTER_EN, LETTER_ES, NOTES, ...Object.values(EXAMPLES).map((e) => e.en.positive)];
    for (const text of texts) {
      for (const labelLang of ['en', 'es'] as const) {
        const a = detector.analyze(text, { labelLang });
        expect(DOC_TYPES as readonly string[]).toContain(a.docType);
        expect(a.docTypeLabel).toBe((labelLang === 'es' ? es : en).docTypes[a.docType as keyof typeof en.docTypes]);
      }
    }
  });

  it('recognises letters by their greeting and sign-off, in English and Spanish', () => {
    expect(detector.analyze(LETTER_EN).docType).toBe('email');
    expect(detector.analyze(LETTER_ES).docType).toBe('email');
  });

  it('recognises a long letter (greeting far from its sign-off)', () => {
    const body = 'We have made good progress on the project this week and the results look promising. '.repeat(80);
    expect(detector.analyze(`Dear team,\n\n${body}\n\nBest regards,\nSam`).docType).toBe('email');
  });

  it('recognises a bullet list as list/notes', () => {
    expect(detector.analyze(NOTES).docType).toBe('list_notes');
  });

  it('says "other" for a text too short to tell', () => {
    expect(detector.analyze('Hello there, how are you?').docType).toBe('other');
  });
});
