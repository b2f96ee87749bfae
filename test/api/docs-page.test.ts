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
  deprecated: boolean;
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

/**
 * Every CSP violation, reported by the page itself (securitypolicyviolation events), so a refused style,
 * script, image or request fails the test even where Chromium would not log it as a console error.
 */
const recordViolations = (page: Page) =>
  page.evaluateOnNewDocument(`
    window.__violations = [];
    document.addEventListener('securitypolicyviolation', (event) =>
      window.__violations.push(event.violatedDirective + ' refused ' + (event.blockedURI || 'inline') +
        ' (' + event.sourceFile + ':' + event.lineNumber + ')'));
  `);

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

/** One row of Swagger UI's list: an area's heading, or an operation (method, path, summary). */
interface Row {
  index: number;
  tag?: string;
  method?: string;
  path?: string;
  summary?: string;
  deprecated?: boolean;
}

/** The rows the page has in its DOM now, each with its position in the whole list. */
const renderedRows = (page: Page) =>
  page.evaluate(`[...document.querySelectorAll('.operations-virtual__item')].map((item) => {
    const heading = item.querySelector('h3.opblock-tag');
    const block = item.querySelector('.opblock');
    return {
      index: Number(item.dataset.index),
      tag: heading?.dataset.tag,
      method: block?.querySelector('.opblock-summary-method')?.textContent.toLowerCase(),
      // A deprecated operation's path has a class of its own, and the operation is shown struck out.
      path: block?.querySelector('.opblock-summary-path, .opblock-summary-path__deprecated')?.dataset.path,
      deprecated: block?.classList.contains('opblock-deprecated'),
      summary: block?.querySelector('.opblock-summary-description')?.textContent,
    };
  })`) as Promise<Row[]>;

const nextFrames = (page: Page) =>
  page.evaluate('new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))');

/**
 * Every operation the page lists, each under the area heading it follows. Swagger UI renders a list of
 * 150 rows or more (areas and operations: ours has about 300) virtually, only the rows near the window,
 * so the page is read as a reader would, scrolling from top to bottom.
 */
const readWholeList = async (page: Page): Promise<Operation[]> => {
  const rows = new Map<number, Row>();
  for (let step = 0, unchanged = 0; step < 500 && unchanged < 3; step++) {
    const before = rows.size;
    for (const row of await renderedRows(page)) rows.set(row.index, row);
    const atBottom = (await page.evaluate(
      'window.scrollY + window.innerHeight >= document.documentElement.scrollHeight - 1',
    )) as boolean;
    unchanged = atBottom && rows.size === before ? unchanged + 1 : 0;
    await page.evaluate('window.scrollBy(0, window.innerHeight * 0.8)');
    await nextFrames(page);
  }
  const ordered = [...rows.values()].sort((a, b) => a.index - b.index);
  expect(
    ordered.map((row) => row.index),
    'rows seen: every position of the list, none skipped',
  ).toEqual(ordered.map((_, position) => position));
  let tag = '';
  return ordered.flatMap((row) => {
    if (row.tag !== undefined) {
      tag = row.tag;
      return [];
    }
    const { method = '', path = '', summary = '', deprecated = false } = row;
    return [{ tag, method, path, summary, deprecated }];
  });
};

const byPath = (list: Operation[]) =>
  [...list].sort((a, b) => `${a.path} ${a.method}`.localeCompare(`${b.path} ${b.method}`));

describe('The docs page (issue 17, item 3)', () => {
  it('GET /docs is public HTML whose page policy allows scripts and requests to this origin only', async () => {
    const res = await api.get('/docs');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(res.text).toContain('data-document="/v3/specifications/openapi.json"');
    for (const [path, type] of [
      ['/docs/swagger-ui.js', 'text/javascript; charset=utf-8'],
      ['/docs/swagger-ui.css', 'text/css; charset=utf-8'],
      ['/docs/reference.js', 'text/javascript; charset=utf-8'],
    ] as const) {
      const asset = await api.get(path);
      expect(asset.status, path).toBe(200);
      expect(asset.headers.get('content-type'), path).toBe(type);
    }
  });

  it('renders every area and every operation of the served document in Chromium, with no console error or failed request', async () => {
    const document = (await api.get('/v3/specifications/openapi.json')).body as {
      tags: { name: string }[];
      paths: Record<string, Record<string, { summary: string; tags: string[]; deprecated?: boolean }>>;
    };
    const operations: Operation[] = Object.entries(document.paths).flatMap(([path, item]) =>
      Object.entries(item).map(([method, operation]) => ({
        method,
        path,
        summary: operation.summary,
        tag: operation.tags[0] ?? '',
        deprecated: operation.deprecated === true,
      })),
    );
    const page = await browser.newPage();
    const problems = watchProblems(page);
    await recordViolations(page);
    const fetched: string[] = [];
    page.on('request', (request) => fetched.push(request.url()));
    await page.setViewport({ width: 1440, height: 900 });
    await page.goto(`${api.url}/docs`, { waitUntil: 'load', timeout: RENDER_TIMEOUT_MS });

    // Every area (tag) of the document heads its open section, followed by each of its operations.
    await waitForTexts(page, 'the first area', [document.tags[0]?.name ?? ''], problems);
    const shown = await readWholeList(page);
    const areas = [...new Set(shown.map((operation) => operation.tag))];
    expect(areas.sort(), 'the areas shown').toEqual(document.tags.map((tag) => tag.name).sort());
    expect(byPath(shown), 'the operations shown, each in its area').toEqual(byPath(operations));

    // The screenshot: the top of the page (the virtual list renders what the viewport shows).
    await page.setViewport({ width: 1440, height: SCREENSHOT_HEIGHT });
    await page.evaluate('window.scrollTo(0, 0)');
    await nextFrames(page);
    mkdirSync(dirname(SCREENSHOT), { recursive: true });
    await page.screenshot({ path: SCREENSHOT });

    // "Try it out" sends its request to the origin the page was loaded from (the document's server is
    // `/`): a public operation, opened by its deep link and executed, answers from this API.
    await page.goto(`${api.url}/docs#/Status/getStatus`, { waitUntil: 'load', timeout: RENDER_TIMEOUT_MS });
    await page.reload({ waitUntil: 'load', timeout: RENDER_TIMEOUT_MS });
    const execute = await page.waitForSelector('#operations-Status-getStatus button.execute', {
      timeout: RENDER_TIMEOUT_MS,
    });
    await execute?.evaluate((button) => (button as unknown as { click(): void }).click());
    await page.waitForSelector(
      '#operations-Status-getStatus .live-responses-table tr.response .response-col_status',
      {
        timeout: RENDER_TIMEOUT_MS,
      },
    );
    const tried = (await page.evaluate(`({
      url: document.querySelector('#operations-Status-getStatus .request-url pre')?.textContent,
      status: document.querySelector('#operations-Status-getStatus .live-responses-table tr.response .response-col_status')?.textContent,
    })`)) as { url: string; status: string };
    expect(tried, 'the try-it request and its answer').toEqual({
      url: `${api.url}/v3/status`,
      status: '200',
    });

    expect(fetched, 'the page read the document the API serves').toContain(
      `${api.url}/v3/specifications/openapi.json`,
    );
    expect(
      fetched.filter((url) => !url.startsWith(`${api.url}/`) && !url.startsWith('data:')),
      'requests to anywhere but this origin',
    ).toEqual([]);
    expect(await page.evaluate('window.__violations'), 'Content-Security-Policy violations').toEqual([]);
    expect(problems, 'console errors and failed requests while loading /docs').toEqual([]);
    await page.close();
  }, 300_000);
});
