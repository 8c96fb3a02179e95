import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Browser, chromium, Page } from 'playwright-core';

// Functions passed to page.evaluate run in the browser, where these exist (the project has no DOM types).
declare const document: any;
declare const window: any;

/** Debian's Chromium (`apt-get install chromium`); no browser is ever downloaded. */
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

const ROOT = resolve(__dirname, '../../..');

/** Builds the console (apps/web) into a fresh directory, as `npm run build` does into dist/web. */
export function buildConsole(): string {
  const outDir = mkdtempSync(join(tmpdir(), 'svc-console-'));
  const result = spawnSync(
    process.execPath,
    [join(ROOT, 'node_modules/vite/bin/vite.js'), 'build', '--config', join(ROOT, 'apps/web/vite.config.mts'), '--outDir', outDir, '--emptyOutDir'],
    {
      cwd: ROOT,
      encoding: 'utf8',
      env: { ...process.env, VITE_CONFIG_NATIVE_IGNORE_WARNING: 'true' },
    },
  );
  if (result.status !== 0) throw new Error(`console build failed: ${result.stderr || result.stdout}`);
  return outDir;
}

/**
 * Headless Chromium for one test file: a fresh temporary profile (`--user-data-dir` chosen by
 * Playwright), no network but loopback in the tests, nothing in the background.
 */
export async function launchChromium(): Promise<Browser> {
  if (!existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is missing: apt-get install -y chromium (.ci/run does it)`);
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

export async function signInThroughForm(page: Page, baseUrl: string, login: string, password: string): Promise<void> {
  await page.goto(`${baseUrl}/-/console/sign_in`);
  await page.getByLabel('Username or email').fill(login);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('button', { name: new RegExp(`Sign out @${login}`) }).waitFor();
}

export interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: string[] }[];
}

/** Runs axe-core (WCAG 2 A/AA rules) in the page; returns the violations. */
export async function axeViolations(page: Page): Promise<AxeViolation[]> {
  const source = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');
  await page.addScriptTag({ content: source });
  return page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run: (ctx: unknown, options: unknown) => Promise<{ violations: AxeViolation[] }> } }).axe;
    const result = await axe.run(document, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] } });
    return result.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.map((n) => ({ target: n.target })) }));
  });
}
