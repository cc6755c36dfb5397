import { describe, expect, it, setDefaultTimeout } from 'bun:test';
import { SUITE_TIMEOUT_MS } from '../timeout';
import { en } from '../../src/i18n/en';
import { es } from '../../src/i18n/es';
import { errorMessage, negotiateLang, parseAcceptLanguage, t } from '../../src/i18n';
import { ERROR_STATUS } from '../../src/http/errors';
import { call, makeApp, words } from './helpers';

setDefaultTimeout(SUITE_TIMEOUT_MS);

function keysOf(node: unknown, prefix = ''): string[] {
  if (typeof node !== 'object' || node === null) return [prefix];
  return Object.entries(node).flatMap(([k, v]) => keysOf(v, prefix ? `${prefix}.${k}` : k));
}

describe('catalogues', () => {
  it('have the same keys in English and Spanish', () => {
    expect(keysOf(es).sort()).toEqual(keysOf(en).sort());
  });

  it('have a message for every error code, with the same placeholders in both languages', () => {
    for (const code of Object.keys(ERROR_STATUS)) {
      const english = (en.errors as Record<string, string>)[code];
      const spanish = (es.errors as Record<string, string>)[code];
      expect(english).toBeString();
      expect(spanish).toBeString();
      expect(spanish).not.toBe(english);
      const holes = (s: string) => (s.match(/\{\w+\}/g) ?? []).sort();
      expect(holes(spanish)).toEqual(holes(english));
    }
  });

  it('fills placeholders and falls back to the path for unknown keys', () => {
    expect(t('es', 'errors.text_too_short', { min: 20, count: 3 })).toBe(
      'El texto es demasiado corto: se necesitan al menos 20 palabras y se han encontrado 3.',
    );
    expect(t('en', 'errors.nope')).toBe('errors.nope');
  });

  it('name a language in words where an error quotes its code (issue 39: `language "en"`)', () => {
    const params = { language: 'en', count: 12, min: 50 };
    expect(errorMessage('en', 'calibration_too_small', params)).toStartWith('Too few usable texts in English: 12 of at least 50 ');
    expect(errorMessage('es', 'calibration_too_small', { ...params, language: 'es' })).toStartWith(
      'Muy pocos textos utilizables en español: 12 de al menos 50 ',
    );
  });
});

describe('language negotiation', () => {
  const cases: Array<[string | null, string | null, 'en' | 'es']> = [
    [null, null, 'en'],
    [null, 'es', 'es'],
    [null, 'es-ES', 'es'],
    [null, 'es-419', 'es'],
    [null, 'ES_mx', 'es'],
    [null, 'fr-FR, es;q=0.8, en;q=0.5', 'es'],
    [null, 'en;q=0.5, es;q=0.9', 'es'],
    [null, 'es;q=0.4, en', 'en'],
    [null, 'es;q=0, en;q=0.1', 'en'],
    [null, 'es;q=0', 'en'],
    [null, 'de, fr', 'en'],
    [null, '*', 'en'],
    [null, 'garbage;;q=abc', 'en'],
    ['es', 'en', 'es'],
    ['en', 'es', 'en'],
    ['es-419', null, 'es'],
    ['zz', 'es', 'es'],
  ];
  for (const [query, header, want] of cases) {
    it(`picks ${want} for ?lang=${query} and Accept-Language: ${header}`, () => {
      expect(negotiateLang(query, header)).toBe(want);
    });
  }

  it('returns null when no supported language is acceptable', () => {
    expect(parseAcceptLanguage('de, fr;q=0.5')).toBeNull();
  });
});

describe('localized responses', () => {
  it('answers errors in Spanish with Content-Language: es for es, es-ES, es-419 and ?lang=es', async () => {
    const { app, newKey } = makeApp();
    const key = (await newKey()).key;
    const variants: Array<{ path: string; headers: Record<string, string> }> = [
      { path: '/api/detect', headers: { 'accept-language': 'es' } },
      { path: '/api/detect', headers: { 'accept-language': 'es-ES' } },
      { path: '/api/detect', headers: { 'accept-language': 'es-419,en;q=0.3' } },
      { path: '/api/detect?lang=es', headers: { 'accept-language': 'en' } },
    ];
    for (const { path, headers } of variants) {
      const response = await call(app, path, { key, json: { text: words(3) }, headers });
      expect(response.status).toBe(400);
      expect(response.headers.get('content-language')).toBe('es');
      expect((await response.json()).error.message).toBe(t('es', 'errors.text_too_short', { min: 20, count: 3 }));
    }
  });

  it('defaults to English with Content-Language: en', async () => {
    const { app } = makeApp();
    const response = await call(app, '/api/detect', { json: { text: 'x' } });
    expect(response.headers.get('content-language')).toBe('en');
    expect((await response.json()).error.message).toBe(en.errors.missing_api_key);
  });

  it('localizes 401, 404 and 405 too', async () => {
    const { app } = makeApp();
    const headers = { 'accept-language': 'es' };
    const unauthorized = await call(app, '/api/detect', { json: {}, headers });
    expect((await unauthorized.json()).error.message).toBe(es.errors.missing_api_key);
    const missing = await call(app, '/nada', { headers });
    expect((await missing.json()).error.message).toBe(t('es', 'errors.not_found', { method: 'GET', path: '/nada' }));
    const wrong = await call(app, '/health', { method: 'DELETE', headers });
    expect(wrong.headers.get('content-language')).toBe('es');
    expect((await wrong.json()).error.message).toContain('no está permitido');
  });

  it('asks the detector for Spanish labels on a 200', async () => {
    const { app, newKey } = makeApp();
    const english = await (await call(app, '/api/detect', { key: (await newKey()).key, json: { text: words(40) } })).json();
    const spanish = await call(app, '/api/detect?lang=es', { key: (await newKey()).key, json: { text: words(40) } });
    expect(spanish.headers.get('content-language')).toBe('es');
    const body = await spanish.json();
    expect(body.verdictKey).toBe(english.verdictKey);
    expect(body.verdict).not.toBe(english.verdict);
  });
});
