import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';

/** Where screenshots go: git-ignored, kept after the run as test artifacts. */
export const SCREENSHOT_DIR = path.resolve('test-artifacts/screenshots');

/**
 * Debian's chromium package (.ci/run installs it): its binary directly, rather than the /usr/bin wrapper
 * script, which only adds flags for desktop use. CHROMIUM_PATH points elsewhere.
 */
const CANDIDATES = [
  process.env.CHROMIUM_PATH,
  '/usr/lib/chromium/chromium',
  '/usr/bin/chromium',
  '/usr/bin/chromium-browser',
];

export function chromiumPath(): string {
  const found = CANDIDATES.find((candidate): candidate is string => !!candidate && existsSync(candidate));
  if (!found)
    throw new Error(
      'No Chromium found: install it (apt-get install -y chromium) or set CHROMIUM_PATH; .ci/run installs it',
    );
  return found;
}

/** Each step of a browser test waits at most this long: a page that does not render fails fast. */
export const BROWSER_STEP_TIMEOUT_MS = 10_000;
/** Starting Chromium on a loaded two-core machine takes a few seconds; more is a broken install. */
const LAUNCH_TIMEOUT_MS = 60_000;

/**
 * A headless Chromium for a test file: `open(url)` gives a fresh page (own cookies and storage) that may
 * only reach loopback addresses, so a page that tried a CDN would fail here as it would offline.
 */
export class HeadlessBrowser {
  private constructor(private readonly browser: Browser) {}

  static async launch(): Promise<HeadlessBrowser> {
    const browser = await chromium.launch({
      executablePath: chromiumPath(),
      headless: true,
      timeout: LAUNCH_TIMEOUT_MS,
      // No sandbox: CI containers run as root, where Chromium's sandbox cannot start.
      args: ['--no-sandbox', '--disable-dev-shm-usage', '--disable-gpu'],
    });
    return new HeadlessBrowser(browser);
  }

  async open(url: string): Promise<Page> {
    const context = await this.browser.newContext({ viewport: { width: 1280, height: 800 } });
    context.setDefaultTimeout(BROWSER_STEP_TIMEOUT_MS);
    // Offline by construction: anything outside loopback is refused.
    await context.route(/^(?!https?:\/\/(127\.0\.0\.1|localhost)[:/])/, (route) => route.abort());
    const page = await context.newPage();
    await page.goto(url);
    return page;
  }

  async close(): Promise<void> {
    await this.browser.close();
  }
}

/**
 * Saves a screenshot under test-artifacts/screenshots/<name>.png; returns its path. The full page by default;
 * `fullPage: false` keeps the viewport, for a page many screens long whose step shows in the viewport (a
 * full-page capture of /docs is 1280×8000 pixels: Chromium lays out, paints and encodes all of it, about 0.4 s
 * of CPU an image between Chromium and the test, for an artifact no one scrolls).
 */
export async function saveScreenshot(
  page: Page,
  name: string,
  { fullPage = true }: { fullPage?: boolean } = {},
): Promise<string> {
  await mkdir(SCREENSHOT_DIR, { recursive: true });
  const file = path.join(SCREENSHOT_DIR, `${name}.png`);
  await page.screenshot({ path: file, fullPage });
  return file;
}
