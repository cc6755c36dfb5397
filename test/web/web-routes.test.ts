/** The playground's server side and pure helpers: embedded assets, cache headers, bundle freshness, CSV, words. */
import { describe, expect, it, setDefaultTimeout } from 'bun:test';
import { SUITE_TIMEOUT_MS } from '../timeout';
import { Elysia } from 'elysia';
import { webRoutes } from '../../src/modules/web/index.ts';
import { BUNDLE_PATH, buildWebBundle } from '../../src/web/build.ts';
import { ApiError, describeError, quotaResetDate } from '../../src/web/api.ts';
import { toCsv } from '../../src/web/batch.ts';
import { calibrationLine, calibrationNote, formatRate } from '../../src/web/calibration.ts';
import { PROFILE_REASONS } from '../../src/detector/decide/profile.ts';
import { STRINGS } from '../../src/web/strings.ts';
import stylesCss from '../../src/web/styles.css' with { type: 'text' };
import { formatShare } from '../../src/web/verdict.ts';
import { BULLET_LEANINGS } from '../../src/detector/types.ts';
import { MIN_WORDS as SERVICE_MIN_WORDS, VERDICT_KEYS } from '../../src/contract/index.ts';
import { countWords, MIN_WORDS } from '../../src/web/words.ts';

setDefaultTimeout(SUITE_TIMEOUT_MS);

const app = new Elysia().use(webRoutes);
const get = (path: string, headers: Record<string, string> = {}) => app.handle(new Request(`http://localhost${path}`, { headers }));

/** The asset URLs the served page references (with their ?v= version). */
async function assetUrls(): Promise<{ css: string; js: string }> {
  const html = await (await get('/')).text();
  const css = html.match(/href="(\/assets\/styles\.css\?v=[^"]+)"/)?.[1];
  const js = html.match(/src="(\/assets\/app\.js\?v=[^"]+)"/)?.[1];
  if (!css || !js) throw new Error('page does not reference versioned assets');
  return { css, js };
}

describe('web routes', () => {
  it('serves the page at / as HTML that must be revalidated, with a strict CSP', async () => {
    const res = await get('/');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(res.headers.get('cache-control')).toBe('no-cache');
    expect(res.headers.get('content-security-policy')).toContain("script-src 'self'");
    expect(await res.text()).toContain('<textarea id="text"');
  });

  it('serves versioned assets with their content types as immutable', async () => {
    const { css, js } = await assetUrls();
    const cssRes = await get(css);
    expect(cssRes.headers.get('content-type')).toBe('text/css; charset=utf-8');
    expect(cssRes.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    const jsRes = await get(js);
    expect(jsRes.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(await jsRes.text()).toBe(await Bun.file(BUNDLE_PATH).text());
  });

  it('asks for revalidation when the asset version is missing or stale', async () => {
    for (const path of ['/assets/app.js', '/assets/app.js?v=old', '/assets/styles.css']) {
      expect((await get(path)).headers.get('cache-control')).toBe('no-cache');
    }
  });

  it('answers 304 to a matching If-None-Match', async () => {
    const first = await get('/');
    const etag = first.headers.get('etag')!;
    const again = await get('/', { 'If-None-Match': etag });
    expect(again.status).toBe(304);
    expect(await again.text()).toBe('');
  });
});

describe('bundle', () => {
  it('the committed src/web/bundle/app.js matches its sources (run `bun run build:web`)', async () => {
    expect(await buildWebBundle()).toBe(await Bun.file(BUNDLE_PATH).text());
  });
});

describe('page helpers', () => {
  it('has the same interface string keys in English and Spanish', () => {
    expect(Object.keys(STRINGS.es).sort()).toEqual(Object.keys(STRINGS.en).sort());
  });

  it('counts words as the server does: letters/digits runs, inner apostrophes and hyphens kept', () => {
    expect(countWords("It's a well-known fact — 42 años, l’été!")).toBe(7);
    expect(countWords('  ')).toBe(0);
    expect(MIN_WORDS).toBe(SERVICE_MIN_WORDS);
  });

  it('quotes CSV fields and defuses formula-like file names', () => {
    const csv = toCsv([
      {
        index: 0,
        fileName: 'a,"b".txt',
        words: 10,
        score: 55,
        aiShare: 0.425,
        verdict: 'Mixed: human and AI passages',
        verdictKey: 'mixed',
        flagged: 1,
        docType: 'Essay',
      },
      { index: 1, fileName: '=cmd().pdf', error: { code: 'corrupt_file', message: 'Bad file' } },
      {
        index: 2,
        fileName: 'c.txt',
        words: 60,
        score: 30,
        aiShare: 0,
        verdict: 'Human',
        verdictKey: 'human',
        flagged: 0,
        docType: 'Essay',
        calibration: { id: 'cal_x', name: 'Staff', applied: false, reason: 'doc_type_not_covered', adapted: false },
      },
      {
        index: 3,
        fileName: 'd.txt',
        words: 53,
        score: 100,
        aiShare: 1,
        verdict: 'AI-generated',
        verdictKey: 'ai',
        flagged: 1,
        docType: 'Essay',
        // An adapted profile (issue 38): `score` is the adapted score, the model's own comes last.
        calibration: { id: 'cal_x', name: 'Staff', applied: true, reason: null, adapted: true, adaptedScore: 100, modelScore: 24 },
      },
    ]);
    expect(csv.split('\r\n')).toEqual([
      'file,words,score,ai_share,verdict,verdict_key,flagged,doc_type,error_code,error_message,calibration_applied,calibration_reason,calibration_adapted,model_score',
      '"a,""b"".txt",10,55,0.425,Mixed: human and AI passages,mixed,1,Essay,,,,,,',
      "'=cmd().pdf,,,,,,,,corrupt_file,Bad file,,,,",
      'c.txt,60,30,0,Human,human,0,Essay,,,false,doc_type_not_covered,false,',
      'd.txt,53,100,1,AI-generated,ai,1,Essay,,,true,,true,24',
      '',
    ]);
  });

  it('says every reason a calibration profile was not applied, in both languages, with the document type where it matters', () => {
    const use = { id: 'cal_x', name: 'Staff', applied: false, adapted: false };
    for (const lang of ['en', 'es'] as const) {
      const lines = PROFILE_REASONS.map((reason) => calibrationLine({ ...use, reason }, 'Essay', lang));
      // One distinct sentence per reason (a new reason without words would fall back to the generic one).
      expect(new Set(lines).size).toBe(PROFILE_REASONS.length);
      for (const reason of PROFILE_REASONS) {
        expect(STRINGS[lang][`reason_${reason}`]).toBeTruthy();
        expect(STRINGS[lang][`why_${reason}`]).toBeTruthy();
        expect(calibrationNote({ ...use, reason }, lang)).toContain(STRINGS[lang][`why_${reason}`]);
      }
      expect(calibrationLine({ ...use, reason: 'doc_type_not_covered' }, 'Essay', lang)).toContain('(Essay)');
      expect(calibrationLine({ ...use, applied: true, reason: null }, 'Essay', lang)).toContain(
        lang === 'en' ? '“Staff” applied' : '«Staff» aplicado',
      );
    }
    // Small rates keep one decimal: "at most 1.3%" is not rounded to "1%".
    expect(formatRate(0.0132, 'en')).toBe('1.3%');
    expect(formatRate(0.0132, 'es')).toBe('1,3\u00a0%');
    expect(formatRate(0, 'en')).toBe('0%');
  });

  it('styles every verdict key and every bullet leaning, with a label for each in both languages', () => {
    for (const key of VERDICT_KEYS) {
      expect(stylesCss).toMatch(new RegExp(`\\.verdict-badge\\[data-verdict="${key}"\\]::before \\{\\s*content: "`));
      for (const lang of ['en', 'es'] as const) expect(STRINGS[lang][`verdictHint_${key}`]).toBeTruthy();
    }
    for (const leaning of BULLET_LEANINGS) {
      expect(stylesCss).toMatch(new RegExp(`\\[data-leaning="${leaning}"\\] \\.leaning::before \\{\\s*content: "`));
      expect(STRINGS.es[`leaning_${leaning}`]).not.toBe(STRINGS.en[`leaning_${leaning}`]);
    }
  });

  it('writes an AI share as a whole percentage in the interface language', () => {
    expect(formatShare(0.524, 'en')).toBe('52%');
    expect(formatShare(0, 'en')).toBe('0%');
    expect(formatShare(1, 'es')).toMatch(/^100\s%$/u);
  });

  it('reads the quota reset from X-RateLimit-Reset, else from Retry-After', () => {
    expect(quotaResetDate(new Headers({ 'X-RateLimit-Reset': '1800000000' }))?.getTime()).toBe(1_800_000_000_000);
    expect(quotaResetDate(new Headers({ 'Retry-After': '60' }), 1000)?.getTime()).toBe(61_000);
    expect(quotaResetDate(new Headers())).toBeNull();
  });
});

describe('error messages', () => {
  it('localizes answers that carry no error body (e.g. a bare 413)', () => {
    const bare = (status: number) => new ApiError(status, `http_${status}`, '', new Headers());
    expect(describeError(bare(413), 'es')).toBe(STRINGS.es.errTooLarge);
    expect(describeError(bare(502), 'en')).toBe('The server answered with status 502.');
    expect(describeError(new TypeError('Failed to fetch'), 'en')).toBe(STRINGS.en.errNetwork);
  });

  it('gives a rate_limited answer no quota-reset line: its Retry-After is seconds, not the month (issue 28)', () => {
    const message = 'Too many requests: this key may send 60 requests per 60 s. Try again in 1 s.';
    const err = new ApiError(429, 'rate_limited', message, new Headers({ 'Retry-After': '1' }));
    expect(describeError(err, 'en')).toBe(message);
    const quota = new ApiError(429, 'quota_exceeded', 'Not enough words.', new Headers({ 'X-RateLimit-Reset': '1800000000' }));
    expect(describeError(quota, 'en')).toStartWith('Not enough words. Your word quota resets on ');
  });

  it('adds the key hint to a 401 and keeps the server’s localized message first', () => {
    const err = new ApiError(401, 'invalid_api_key', 'Clave de API no válida.', new Headers());
    expect(describeError(err, 'es')).toBe(`Clave de API no válida. ${STRINGS.es.errNeedKey}`);
  });
});
