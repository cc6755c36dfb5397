import { describe, expect, it, setDefaultTimeout } from 'bun:test';
import { SUITE_TIMEOUT_MS } from '../timeout';
import { isSensitivity, SENSITIVITIES } from '../../src/contract';
import type { ApiError } from '../../src/http/errors';
import { validateDetectBody } from '../../src/modules/detect/model';

setDefaultTimeout(SUITE_TIMEOUT_MS);

function codeOf(body: unknown): string {
  try {
    validateDetectBody(body);
    return 'ok';
  } catch (error) {
    return (error as ApiError).code;
  }
}

describe('the single-mode body, checked by its TypeBox schema', () => {
  it('defaults an absent or null sensitivity and ignores fields it does not know', () => {
    expect(validateDetectBody({ text: 'a text' })).toEqual({ text: 'a text', sensitivity: 'conservative', calibration: null });
    expect(validateDetectBody({ text: 'a text', sensitivity: null })).toEqual({
      text: 'a text',
      sensitivity: 'conservative',
      calibration: null,
    });
    expect(validateDetectBody({ text: '', sensitivity: 'aggressive', id: 7 })).toEqual({
      text: '',
      sensitivity: 'aggressive',
      calibration: null,
    });
    expect(validateDetectBody({ text: 'a', calibration: 'cal_x' })).toEqual({
      text: 'a',
      sensitivity: 'conservative',
      calibration: 'cal_x',
    });
    expect(() => validateDetectBody({ text: 'a', calibration: 7 })).toThrow(expect.objectContaining({ code: 'invalid_request' }));
  });

  it('answers text_required for any problem with the body or its text, before looking at the sensitivity', () => {
    for (const body of [null, 'text', 42, [], {}, { text: null }, { text: ['a'] }, { text: 1, sensitivity: 'paranoid' }]) {
      expect([body, codeOf(body)]).toEqual([body, 'text_required']);
    }
  });

  it('answers invalid_sensitivity for a value outside SENSITIVITIES', () => {
    for (const sensitivity of ['', 'paranoid', 'Balanced', ' balanced', 3, true, {}, ['balanced']]) {
      expect([sensitivity, codeOf({ text: 'a text', sensitivity })]).toEqual([sensitivity, 'invalid_sensitivity']);
    }
    for (const sensitivity of SENSITIVITIES) expect(codeOf({ text: 'a text', sensitivity })).toBe('ok');
  });

  it('has one guard for the mode, used by JSON bodies, batch form fields and the CLI', () => {
    expect(SENSITIVITIES.filter(isSensitivity)).toEqual([...SENSITIVITIES]);
    for (const value of ['', 'x', null, undefined, 1, 'conservative ']) expect(isSensitivity(value)).toBe(false);
  });
});
