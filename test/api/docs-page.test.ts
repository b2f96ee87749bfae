/**
 * Issue 17, item 3: the docs page at GET /docs renders the OpenAPI document the stack serves, in a real
 * browser (Debian's headless Chromium driven by puppeteer-core), with nothing fetched from outside this
 * origin. The screenshot it writes (test/output/docs-page.png) is for a person to look at.
 */
import { existsSync, mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import puppeteer, { type Browser, type Page } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApi, type TestApi } from '../support/api';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const SCREENSHOT = resolve(import.meta.dirname, '../output/docs-page.png');
const SCREENSHOT_HEIGHT = 2400;
/** Generous: the page parses a 1.3 MB document and renders 44 areas on a shared 2-core machine. */
const RENDER_TIMEOUT_MS = 120_000;

interface Operation {
  method: string;
  path: string;
  summary: string;
  tag: string;
}

let api: TestApi;
let browser: Browser;

beforeAll(async () => {
  if (!existsSync(CHROMIUM))
    throw new Error(
      `The docs page test needs Chromium at ${CHROMIUM} (or set CHROMIUM_PATH): ` +
        'apt-get install -y --no-install-recommends chromium (.ci/run does this when it is missing)',
    );
  api = await startTestApi();
  // As root (CI) Chromium's sandbox cannot start; /dev/shm is small in containers.
  browser = await puppeteer.launch({
    executablePath: CHROMIUM,
    args: ['--no-sandbox', '--disable-dev-shm-usage'],
  });
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await api?.close();
});

/** Everything a person would see go wrong: console errors, uncaught exceptions, failed or refused loads. */
const watchProblems = (page: Page): string[] => {
  const problems: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(`console error: ${message.text()}`);
  });
  page.on('pageerror', (error) => problems.push(`uncaught: ${(error as Error).message}`));
  page.on('requestfailed', (request) =>
    problems.push(`request failed: ${request.url()} (${request.failure()?.errorText})`),
  );
  page.on('response', (response) => {
    if (response.status() >= 400) problems.push(`${response.status()} from ${response.url()}`);
  });
  return problems;
};

/** The sidebar's collapsed areas, opened one by one as a reader would (opening one may reveal more). */
const openEveryGroup = async (page: Page) => {
  for (let round = 0; round < 10; round++) {
    const closed = await page.$$('button[aria-expanded="false"]');
    const groups = [];
    for (const button of closed)
      if (await button.evaluate((b) => (b.textContent ?? '').includes('Open Group'))) groups.push(button);
    if (groups.length === 0) return;
    for (const button of groups) await button.evaluate((b) => (b as unknown as { click(): void }).click());
  }
};

/** Waits until every expected text is on the page; on timeout, fails naming the ones still missing. */
const waitForTexts = async (page: Page, label: string, texts: readonly string[], problems: string[]) => {
  try {
    await page.waitForFunction(
      `${JSON.stringify(texts)}.every((text) => document.body.innerText.includes(text))`,
      { timeout: RENDER_TIMEOUT_MS, polling: 500 },
    );
  } catch {
    const shown = (await page.evaluate('document.body.innerText')) as string;
    const missing = texts.filter((text) => !shown.includes(text));
    expect.fail(
      `${label} not rendered within ${RENDER_TIMEOUT_MS / 1000} s: ${missing.join(', ')}; ` +
        `problems seen: ${problems.join('; ') || 'none'}`,
    );
  }
};

describe('The docs page (issue 17, item 3)', () => {
  it('GET /docs is public HTML whose page policy allows scripts and requests to this origin only', async () => {
    const res = await api.get('/docs');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(res.text).toContain('data-document="/v3/specifications/openapi.json"');
    const renderer = await api.get('/docs/scalar.js');
    expect(renderer.status).toBe(200);
    expect(renderer.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
  });

  it('renders every area and every operation of the served document in Chromium, with no console error or failed request', async () => {
    const document = (await api.get('/v3/specifications/openapi.json')).body as {
      tags: { name: string }[];
      paths: Record<string, Record<string, { summary: string; tags: string[] }>>;
    };
    const operations: Operation[] = Object.entries(document.paths).flatMap(([path, item]) =>
      Object.entries(item).map(([method, operation]) => ({
        method,
        path,
        summary: operation.summary,
        tag: operation.tags[0] ?? '',
      })),
    );
    const page = await browser.newPage();
    const problems = watchProblems(page);
    const fetched: string[] = [];
    page.on('response', (response) => fetched.push(new URL(response.url()).pathname));
    await page.setViewport({ width: 1440, height: 900 });
    await page.goto(`${api.url}/docs`, { waitUntil: 'load', timeout: RENDER_TIMEOUT_MS });

    // The sidebar names every area (tag) of the document; then each area, opened, lists its operations.
    await waitForTexts(
      page,
      'areas',
      document.tags.map((tag) => tag.name),
      problems,
    );
    await openEveryGroup(page);
    await waitForTexts(
      page,
      'operations',
      operations.map((operation) => operation.summary),
      problems,
    );
    // The "try it" client targets the server the page was loaded from (the document's server is `/`).
    await waitForTexts(page, 'the try-it server', [api.url], problems);
    mkdirSync(dirname(SCREENSHOT), { recursive: true });
    // The whole page with every area open is tens of thousands of pixels tall, more than Chromium will
    // capture ("Page is too large"): the screenshot is the page's first SCREENSHOT_HEIGHT pixels.
    const height = (await page.evaluate('document.documentElement.scrollHeight')) as number;
    await page.screenshot({
      path: SCREENSHOT,
      captureBeyondViewport: true,
      clip: { x: 0, y: 0, width: 1440, height: Math.min(height, SCREENSHOT_HEIGHT) },
    });

    expect(fetched, 'the page read the document the API serves').toContain('/v3/specifications/openapi.json');
    expect(problems, 'console errors and failed requests while loading /docs').toEqual([]);
    await page.close();
  }, 300_000);
});
