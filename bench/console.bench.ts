/**
 * `npm run bench:console`: the web console's list page with 10,000 alerts in the project.
 * Prints the gzipped size of the page's JavaScript, the time to the first rendered row of the
 * alert list (cold navigation, median and worst of several runs), and the delay from a notify
 * request to the new alert's row on an open list (live, over SSE). Gateway built by
 * `npm run build`, its own database, Debian's Chromium (`/usr/bin/chromium`).
 */
import { ChildProcess, spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { gzipSync } from 'node:zlib';
import { Client } from 'pg';
import { chromium } from 'playwright-core';
import { machine, percentile, waitForHttp, write } from './support';

const ROOT = resolve(__dirname, '../..');
const PORT = Number(process.env.BENCH_GATEWAY_PORT ?? 3906);
const DATABASE = process.env.BENCH_DATABASE ?? 'service_api_bench_console';
const ALERTS = Number(process.env.BENCH_ALERTS ?? 10_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 7);
const SERVER = 'postgres://postgres@127.0.0.1:5432';
const ROOT_TOKEN = 'bench-root-token-0123456789abcdef';
const ROOT_PASSWORD = 'bench-root-password';
const PREFIX = `bench-console-${Date.now()}`;
const BASE = `http://127.0.0.1:${PORT}`;
const SEVERITIES = ['critical', 'high', 'medium', 'low', 'info'];

async function apiPost(path: string, body: unknown): Promise<any> {
  const response = await fetch(`${BASE}/api/v4${path}`, {
    method: 'POST',
    headers: { 'PRIVATE-TOKEN': ROOT_TOKEN, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (response.status !== 201) throw new Error(`${path}: ${response.status} ${await response.text()}`);
  return response.json();
}

function bundleSize(): { files: number; raw: number; gzip: number } {
  const dir = join(ROOT, 'dist/web/assets');
  const js = readdirSync(dir).filter((f) => f.endsWith('.js'));
  let raw = 0;
  let gzip = 0;
  for (const file of js) {
    const bytes = readFileSync(join(dir, file));
    raw += bytes.length;
    gzip += gzipSync(bytes, { level: 9 }).length;
  }
  return { files: js.length, raw, gzip };
}

async function main(): Promise<void> {
  const size = bundleSize();
  write(`console bench: ${machine()}`);
  write(`list page JavaScript: ${size.files} file(s), ${(size.raw / 1024).toFixed(1)} kB, ${(size.gzip / 1024).toFixed(1)} kB gzipped (target < 150 kB)`);

  const admin = new Client({ connectionString: `${SERVER}/postgres` });
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS ${DATABASE} WITH (FORCE)`);
  await admin.end();
  const env = {
    ...process.env,
    HOST: '127.0.0.1',
    PORT: String(PORT),
    DATABASE_URL: `${SERVER}/${DATABASE}`,
    INITIAL_ROOT_TOKEN: ROOT_TOKEN,
    INITIAL_ROOT_PASSWORD: ROOT_PASSWORD,
    WEB_CONSOLE_DIR: join(ROOT, 'dist/web'),
    LOG_LEVEL: 'warn',
    KAFKA_TOPIC_PREFIX: PREFIX,
    REDIS_PREFIX: PREFIX,
  };
  const gateway: ChildProcess = spawn(process.execPath, [join(ROOT, 'dist/apps/gateway/src/main.js')], { env, stdio: ['ignore', 'ignore', 'inherit'] });
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
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
  try {
    await waitForHttp(`${BASE}/-/readiness`, 60_000);
    const project = await apiPost('/projects', { name: 'bench', path: 'bench' });
    const integration = await apiPost(`/projects/${project.id}/alert_management/http_integrations`, { name: 'bench', active: true });
    const notify = (i: number, title = `Alert ${i}`) =>
      fetch(integration.url.replace(/^https?:\/\/[^/]+/, BASE), {
        method: 'POST',
        headers: { authorization: `Bearer ${integration.token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ title, severity: SEVERITIES[i % SEVERITIES.length], fingerprint: `bench-${i}`, service: `svc-${i % 40}` }),
      }).then((r) => {
        if (r.status !== 200) throw new Error(`notify: ${r.status}`);
      });
    const seedStart = Date.now();
    let next = 0;
    await Promise.all(
      Array.from({ length: 32 }, async () => {
        while (next < ALERTS) await notify(next++);
      }),
    );
    write(`seeded ${ALERTS.toLocaleString('en-US')} alerts through the notify endpoint in ${((Date.now() - seedStart) / 1000).toFixed(1)} s`);

    const page = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
    await page.goto(`${BASE}/-/console/sign_in`);
    await page.getByLabel('Username or email').fill('root');
    await page.getByLabel('Password').fill(ROOT_PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('button', { name: /Sign out/ }).waitFor();

    const listUrl = `${BASE}/-/console/projects/${project.id}/alerts`;
    const wall: number[] = [];
    const inPage: number[] = [];
    for (let run = 0; run <= RUNS; run++) {
      await page.goto('about:blank');
      const t0 = Date.now();
      await page.goto(listUrl, { waitUntil: 'commit' });
      await page.waitForSelector('tr[data-iid]', { timeout: 30_000 });
      const counted = await page.waitForFunction(() => /\d/.test(document.querySelector('[data-testid="count-open"]')?.textContent ?? ''), undefined, {
        timeout: 30_000,
      });
      await counted.dispose();
      // The console marks the moment its first rows and counts are rendered.
      const sinceNavigation = await page.evaluate(() => performance.getEntriesByName('console:list-rendered')[0]?.startTime ?? performance.now());
      // The first run warms the caches (PostgreSQL, the browser's HTTP cache of the assets): not counted.
      if (run === 0) continue;
      wall.push(Date.now() - t0);
      inPage.push(sinceNavigation);
    }
    // Where the last run's time went: the page's requests, from navigation start.
    const timeline = (await page.evaluate(() =>
      performance
        .getEntriesByType('resource')
        .concat(performance.getEntriesByType('navigation'))
        .map((e: { name: string; startTime: number; responseEnd: number }) => ({ name: e.name, start: e.startTime, end: e.responseEnd })),
    )) as { name: string; start: number; end: number }[];
    wall.sort((a, b) => a - b);
    inPage.sort((a, b) => a - b);
    write(
      `first render of the list (first row and the counts) with ${ALERTS.toLocaleString('en-US')} alerts, ${RUNS} runs: ` +
        `median ${percentile(inPage, 50).toFixed(0)} ms, worst ${inPage[inPage.length - 1].toFixed(0)} ms after navigation start (the page's own mark; ` +
        `wall clock from goto until the test harness saw them: median ${percentile(wall, 50)} ms, worst ${wall[wall.length - 1]} ms; target < 1 s)`,
    );

    for (const entry of timeline.sort((a, b) => a.start - b.start)) {
      write(`  ${entry.start.toFixed(0).padStart(5)}–${entry.end.toFixed(0).padStart(5)} ms  ${entry.name.replace(BASE, '').slice(0, 110)}`);
    }

    // Live: the list is open and connected; a new alert posted to the notify URL.
    await page.getByRole('status').filter({ hasText: 'Live' }).waitFor();
    const delays: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      const title = `Live alert ${i} ${Date.now()}`;
      const t0 = Date.now();
      await notify(ALERTS + i, title);
      await page.locator('tr[data-iid]', { hasText: title }).waitFor({ timeout: 30_000 });
      delays.push(Date.now() - t0);
    }
    delays.sort((a, b) => a - b);
    write(
      `live: notify request to the new row on an open list, ${RUNS} alerts: median ${percentile(delays, 50)} ms, worst ${delays[delays.length - 1]} ms (target < 1 s)`,
    );
  } finally {
    await browser.close();
    gateway.kill('SIGTERM');
    await new Promise((r) => gateway.once('exit', r));
    const cleanup = new Client({ connectionString: `${SERVER}/postgres` });
    await cleanup.connect();
    await cleanup.query(`DROP DATABASE IF EXISTS ${DATABASE} WITH (FORCE)`);
    await cleanup.end();
  }
}

declare const document: any;
declare const performance: { now(): number; getEntriesByType(type: string): any[]; getEntriesByName(name: string): { startTime: number }[] };

main().catch((error: unknown) => {
  process.stderr.write(`${(error as Error).stack ?? String(error)}\n`);
  process.exit(1);
});
