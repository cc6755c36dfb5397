import { describe, expect, it, setDefaultTimeout } from 'bun:test';
import { SUITE_TIMEOUT_MS } from '../timeout';
import { createApp } from '../../src/app';
import { loadConfig } from '../../src/config';
import { createJsonLogger } from '../../src/http/logger';
import { getQuotaState } from '../../src/modules/quota';
import { call, detector, freshStore, keyOn, makeApp, PROSE } from './helpers';

setDefaultTimeout(SUITE_TIMEOUT_MS);

describe('no 500 for client input', () => {
  const bodies: Array<[string, BodyInit]> = [
    ['invalid UTF-8', new Uint8Array([0x7b, 0x22, 0x74, 0x65, 0x78, 0x74, 0x22, 0x3a, 0x22, 0xff, 0xfe, 0x22, 0x7d])],
    ['deep nesting', '['.repeat(100_000) + ']'.repeat(100_000)],
    ['lone surrogates', JSON.stringify({ text: `${PROSE} \ud800 \udfff` })],
    ['NUL and controls', JSON.stringify({ text: `${PROSE}\u0000\u0001\u001f` })],
    ['emoji and RTL', JSON.stringify({ text: `${PROSE} 🤖🧠 مرحبا بالعالم שלום עולם` })],
    ['huge number', '{"text": 1e999999}'],
    ['BOM', `\ufeff${JSON.stringify({ text: PROSE })}`],
    ['only whitespace text', JSON.stringify({ text: ' \n\t '.repeat(1000) })],
    ['one giant word', JSON.stringify({ text: 'a'.repeat(500_000) })],
    ['punctuation soup', JSON.stringify({ text: '!?.,;:'.repeat(10_000) })],
    ['many tiny sentences', JSON.stringify({ text: 'Go. '.repeat(20_000) })],
    ['prototype keys', '{"__proto__": {"text": "x"}, "constructor": 1}'],
  ];
  for (const [name, body] of bodies) {
    it(`answers a client error or 200 for ${name}`, async () => {
      const { app, newKey, logs } = makeApp();
      const response = await call(app, '/api/detect', { key: (await newKey()).key, body, headers: { 'content-type': 'application/json' } });
      expect(response.status).toBeLessThan(500);
      const json = await response.json();
      expect(typeof json.success).toBe('boolean');
      expect(logs.some((l) => l.includes('"level":"error"'))).toBe(false);
    });
  }
});

describe('unexpected failures', () => {
  it('map to 500 internal_error without charging and without logging the message', async () => {
    const store = freshStore();
    const logs: string[] = [];
    const secretText = `${PROSE} Sesquipedalian-sentinel-phrase.`;
    const broken = {
      countWords: detector().countWords,
      profileSample: () => null,
      analyze(text: string): never {
        throw new Error(`engine exploded on: ${text}`);
      },
    };
    const app = createApp({
      config: loadConfig({ BOOTSTRAP_KEY: '0' }),
      store,
      detector: broken,
      logger: createJsonLogger((l) => logs.push(l)),
    });
    const created = await keyOn(store, 'free');
    const response = await call(app, '/api/detect', { key: created.key, json: { text: secretText } });
    expect(response.status).toBe(500);
    const body = await response.json();
    expect(body.error.code).toBe('internal_error');
    expect(JSON.stringify(body)).not.toContain('Sesquipedalian');
    expect(logs.join('')).not.toContain('Sesquipedalian');
    expect(logs.some((l) => l.includes('"event":"unhandled_error"'))).toBe(true);
    expect((await getQuotaState(store.quota, created.row)).used).toBe(0);
    // A trial key (lifetime call cap) gets its call back too.
    const trial = await keyOn(store, 'trial');
    expect((await call(app, '/api/detect', { key: trial.key, json: { text: PROSE } })).status).toBe(500);
    expect(await getQuotaState(store.quota, trial.row)).toMatchObject({ used: 0, callsUsed: 0 });
  });
});
