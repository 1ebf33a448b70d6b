/**
 * The web benchmark: what the first paint costs a visitor. Loads `/` (a first visit, with
 * the beta disclaimer due, and a returning one) and a signed-in member's `/dashboard` in Debian's
 * Chromium and sums the gzipped size of every script each page loaded until the network was idle
 * (gzipped here with node:zlib, so the figure does not depend on how the server compresses), then runs
 * Lighthouse's desktop preset on `/` for its performance score. Targets: `/` at most 120 KB, `/dashboard`
 * at most 200 KB, Lighthouse at least 0.95.
 */
import { gzipSync } from 'node:zlib';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import desktopConfig from 'lighthouse/core/config/desktop-config.js';
import { type Browser, chromium } from 'playwright-core';
import type { BenchContext, Suite } from '../lib/context.ts';
import { round } from '../lib/results.ts';

const CHROME_PATH = process.env.CHROME_PATH || '/usr/bin/chromium';
const CHROME_FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];
const MEMBER_PASSWORD = 'Bench-member-9!';

/** What the browser keeps in localStorage (SPEC §4 session keys, the accepted disclaimer). */
type Storage = Record<string, unknown>;

interface PageCost {
  scripts: number;
  /** Sum of each script gzipped on its own (node:zlib, default level), in KB (1000 bytes). */
  gzipKb: number;
  rawKb: number;
}

/**
 * Loads `url` in a fresh context with `storage` set, and measures the scripts it fetched until it has drawn:
 * its text, and `drawn` (a selector) when given, then the chunks those ask for, the network idle.
 */
async function scriptCost(browser: Browser, url: string, storage: Storage, drawn?: string): Promise<PageCost> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  await context.addInitScript((items: Storage) => {
    for (const [key, value] of Object.entries(items)) localStorage.setItem(key, JSON.stringify(value));
  }, storage);
  const page = await context.newPage();
  const bodies: Promise<Buffer>[] = [];
  page.on('response', (res) => {
    if (res.request().resourceType() === 'script' && res.ok()) bodies.push(res.body());
  });
  await page.goto(url, { waitUntil: 'networkidle' });
  // On a busy machine the network can idle while the entry script still parses: wait for the app to
  // paint, then for the chunks it asks for.
  await page.waitForFunction('document.body.innerText.trim().length > 0');
  // The shell paints before a signed-in page's lazy parts: wait for the page itself.
  if (drawn) await page.locator(drawn).first().waitFor({ timeout: 30_000 });
  await page.waitForLoadState('networkidle');
  // A script answered after the network went idle would read its body from a closed context.
  page.removeAllListeners('response');
  const scripts = await Promise.all(bodies);
  await context.close();
  const kb = (n: number) => round(n / 1000, 1);
  return {
    scripts: scripts.length,
    gzipKb: kb(scripts.reduce((sum, b) => sum + gzipSync(b).length, 0)),
    rawKb: kb(scripts.reduce((sum, b) => sum + b.length, 0)),
  };
}

/** Lighthouse (desktop preset, performance only) on `url`: the score and the paint metrics in ms. */
async function lighthouseDesktop(url: string) {
  const chrome = await chromeLauncher.launch({
    chromePath: CHROME_PATH,
    chromeFlags: ['--headless=new', '--no-sandbox'],
  });
  try {
    const result = await lighthouse(
      url,
      { port: chrome.port, output: 'json', logLevel: 'error', onlyCategories: ['performance'] },
      desktopConfig,
    );
    if (!result) throw new Error('Lighthouse returned no result');
    const { lhr } = result;
    const metric = (id: string) => round(lhr.audits[id]?.numericValue ?? Number.NaN, 0);
    return {
      score: lhr.categories.performance?.score ?? null,
      fcpMs: metric('first-contentful-paint'),
      lcpMs: metric('largest-contentful-paint'),
      tbtMs: metric('total-blocking-time'),
      cls: round(lhr.audits['cumulative-layout-shift']?.numericValue ?? Number.NaN, 3),
      transferKb: round((lhr.audits['total-byte-weight']?.numericValue ?? Number.NaN) / 1000, 1),
    };
  } finally {
    chrome.kill();
  }
}

async function measureWeb(ctx: BenchContext) {
  const nickname = `webbench${Date.now().toString(36)}`;
  const member = await ctx.api.post<{ user: unknown; token: string }>('/api/user/register', {
    nickname,
    email: `${nickname}@bench.example.com`,
    password: MEMBER_PASSWORD,
  });
  const accepted = { disclaimer: { version: 'v0.0.1', nextShow: Date.now() + 86_400_000 } };
  const signedIn = { ...accepted, user: member.user, token: member.token, tokenexpires: Date.now() + 86_400_000 };

  const browser = await chromium.launch({ executablePath: CHROME_PATH, args: CHROME_FLAGS });
  let home: PageCost;
  let homeReturning: PageCost;
  let dashboard: PageCost;
  try {
    home = await scriptCost(browser, `${ctx.server.url}/`, {});
    homeReturning = await scriptCost(browser, `${ctx.server.url}/`, accepted);
    dashboard = await scriptCost(browser, `${ctx.server.url}/dashboard`, signedIn, '#portfolio-title');
  } finally {
    await browser.close();
  }
  ctx.log(
    `web: / ${home.gzipKb} KB gzipped JS (${homeReturning.gzipKb} KB returning), /dashboard ${dashboard.gzipKb} KB`,
  );
  ctx.log('web: Lighthouse (desktop) on /');
  const lh = await lighthouseDesktop(`${ctx.server.url}/`);
  return {
    case: 'web',
    home_js_gzip_kb: home.gzipKb,
    home_js_gzip_kb_returning: homeReturning.gzipKb,
    dashboard_js_gzip_kb: dashboard.gzipKb,
    home_js_raw_kb: home.rawKb,
    dashboard_js_raw_kb: dashboard.rawKb,
    home_scripts: home.scripts,
    dashboard_scripts: dashboard.scripts,
    lighthouse_performance: lh.score,
    lighthouse_fcp_ms: lh.fcpMs,
    lighthouse_lcp_ms: lh.lcpMs,
    lighthouse_tbt_ms: lh.tbtMs,
    lighthouse_cls: lh.cls,
    lighthouse_transfer_kb: lh.transferKb,
    targets: { home_js_gzip_kb: 120, dashboard_js_gzip_kb: 200, lighthouse_performance: 0.95 },
  };
}

export const webSuite: Suite = {
  name: 'web',
  cases: ['web'],
  usesPgbench: false,
  async run(ctx, selected, report) {
    if (selected('web')) report(await measureWeb(ctx));
  },
};
