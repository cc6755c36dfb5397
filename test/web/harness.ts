/** Browser-test harness: the real app on a free port and Debian's chromium driven by playwright-core. */
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext, type Page, type Response } from 'playwright-core';
import { createApp } from '../../src/app.ts';
import { loadConfig } from '../../src/config.ts';
import { createDetector } from '../../src/detector/index.ts';
import type { CalibrationProfile } from '../../src/detector/decide/profile.ts';
import { storeProfile } from '../../src/modules/calibrations/service.ts';
import { createKey, findActiveKey } from '../../src/modules/keys/index.ts';
import { chargeWords } from '../../src/modules/quota/index.ts';
import { type PlanId, PLANS } from '../../src/plans.ts';
import { openSqliteStore } from '../../src/store/sqlite/index.ts';
import type { ApiKey } from '../../src/store/types.ts';
import type { Detector } from '../../src/detector/types.ts';

/** Time for a browser hook (launching chromium, first page load) on a loaded 2-core machine. */
export const BROWSER_TIMEOUT_MS = 30_000;

/** Debian's chromium; `npx playwright install` cannot download browsers here (STACK_NOTES). */
export const CHROMIUM_PATH = '/usr/bin/chromium';
/** Launch flags from STACK_NOTES "Browser tests" (headless as root, no network side traffic). */
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** True when the browser tests can run on this machine. */
export const HAVE_CHROMIUM = existsSync(CHROMIUM_PATH);

/** A running server with one free-plan key, and one whose month is all but used up. */
export interface TestServer {
  url: string;
  key: string;
  spentKey: string;
  /** The server's own detector, to check what the page shows against. */
  detector: Detector;
  /** A new key with a whole month of words, free-plan unless told (a test that spends a month's share makes its own). */
  newKey(name: string, plan?: PlanId): Promise<string>;
  /** Stores `profile` for the key `key` (as `calibrate --key-id` does) and answers its id. */
  storeProfile(key: string, profile: CalibrationProfile): Promise<string>;
  stop(): Promise<void>;
}

/** Starts the real app (in-memory database, real detector) on a free port of 127.0.0.1. */
export async function startServer(): Promise<TestServer> {
  const config = loadConfig({ DATABASE_PATH: ':memory:', BOOTSTRAP_KEY: '0', PORT: '0', HOST: '127.0.0.1' });
  const store = openSqliteStore(config.databasePath, { timeoutMs: config.storeTimeoutMs });
  const { key } = await createKey(store.keys, { plan: 'free', name: 'playground-test' });
  const spent = await createKey(store.keys, { plan: 'free', name: 'playground-spent' });
  // Leave 5 words of the month, so any real text answers 429 quota_exceeded.
  await chargeWords(store.quota, (await findActiveKey(store.keys, spent.key)) as ApiKey, PLANS.free.wordsPerMonth - 5);
  const detector = await createDetector();
  const app = createApp({ config, store, detector }).listen({ port: 0, hostname: '127.0.0.1' });
  const port = app.server!.port;
  return {
    url: `http://127.0.0.1:${port}`,
    key,
    spentKey: spent.key,
    detector,
    newKey: async (name, plan = 'free') => (await createKey(store.keys, { plan, name })).key,
    storeProfile: async (secret, profile) =>
      (await storeProfile(store.calibrations, ((await findActiveKey(store.keys, secret)) as ApiKey).id, profile)).id,
    async stop() {
      await app.stop();
      await store.close();
    },
  };
}

/** A headless chromium with a fresh profile, and its first page. */
export interface TestBrowser {
  context: BrowserContext;
  page: Page;
  close(): Promise<void>;
}

/** Launches chromium with a fresh --user-data-dir (removed on close). */
export async function launchBrowser(): Promise<TestBrowser> {
  const profile = mkdtempSync(join(tmpdir(), 'playground-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: CHROMIUM_ARGS,
    viewport: { width: 1100, height: 900 },
    locale: 'en-US',
    timezoneId: 'UTC',
    acceptDownloads: true,
  });
  const page = context.pages()[0] ?? (await context.newPage());
  return {
    context,
    page,
    async close() {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

/** Where the browser tests write their screenshots (git-ignored); docs/playground.png is a copy of playground-mixed.png. */
export const ARTIFACTS = join(import.meta.dir, '..', 'artifacts');

/** The two widths the issues check the playground at (a laptop and a phone), each in both interface languages. */
export const VIEWS = [
  { width: 1280, height: 900 },
  { width: 390, height: 844 },
] as const;
export const UI_LANGS = ['en', 'es'] as const;
export const COMBOS = VIEWS.flatMap((view) => UI_LANGS.map((lang) => ({ view, lang, tag: `${view.width}-${lang}` })));

/** A test server and a chromium page open on its playground, with one close() for both. */
export interface PlaygroundSession {
  server: TestServer;
  page: Page;
  close(): Promise<void>;
}

/** Starts a server and a browser, opens the playground, and makes the screenshot folder. */
export async function openPlayground(): Promise<PlaygroundSession> {
  mkdirSync(ARTIFACTS, { recursive: true });
  const server = await startServer();
  const browser = await launchBrowser();
  await browser.page.goto(`${server.url}/`);
  return {
    server,
    page: browser.page,
    async close() {
      await browser.close();
      await server.stop();
    },
  };
}

/** Whether a browser response is the page's call of POST /v1/detect. */
export function isDetect(res: Response): boolean {
  return res.url().endsWith('/v1/detect') && res.request().method() === 'POST';
}

/** Whether a browser response is the page's call of POST /v1/calibrations (making a profile). */
export function isCreate(res: Response): boolean {
  return res.url().endsWith('/v1/calibrations') && res.request().method() === 'POST';
}

/** Text files for a file picker (page.setInputFiles), one text each, named `prefix-i.txt`. */
export function asFiles(texts: string[], prefix: string): { name: string; mimeType: string; buffer: Buffer }[] {
  return texts.map((text, i) => ({ name: `${prefix}-${i}.txt`, mimeType: 'text/plain', buffer: Buffer.from(text) }));
}

/** Sets the page to one of COMBOS: its viewport and its interface language. */
export async function show(page: Page, combo: (typeof COMBOS)[number]): Promise<void> {
  await page.setViewportSize(combo.view);
  await page.check(`#lang-${combo.lang}`);
}

/** Pastes `text` on the Text tab, clicks Analyze, waits for the result on screen; the API's answer and its body. */
export async function analyzeText(page: Page, text: string): Promise<{ res: Response; body: Record<string, any> }> {
  await page.click('#tab-text');
  await page.fill('#text', text);
  const [res] = await Promise.all([page.waitForResponse(isDetect), page.click('#analyze')]);
  await page.waitForSelector('#result:not([hidden])');
  return { res, body: await res.json() };
}
