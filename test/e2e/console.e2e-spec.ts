import { rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { eventually } from '@app/testing';
import { AlertingFixture } from './support/alerting-fixture';
import { axeViolations, buildConsole, launchChromium, signInThroughForm } from './support/browser';
import { startHookReceiver } from './support/hook-receiver';
import { api, startTestGateway, TestGateway } from './support/test-gateway';

// Functions passed to page.evaluate run in the browser, where these exist (the project has no DOM types).
declare const document: any;
declare const window: any;
declare function getComputedStyle(element: unknown): { display: string };

jest.setTimeout(120_000);

const ROOT_PASSWORD = 'root-console-password';
const USER_PASSWORD = 'secret-password-1';
const DOCS = resolve(__dirname, '../../docs');
/** Bounds of the waits on the browser (the conditions usually hold within a second). */
const UI_WAIT = { timeout: 20_000 };

/** The on-call console in Debian's Chromium against the real gateway (Playwright). */
describe('web console (browser)', () => {
  let gw: TestGateway;
  let fx: AlertingFixture;
  let browser: Browser;
  let consoleDir: string;
  let project: { id: number; fullPath: string };
  let integration: { id: number; url: string; token: string; path: string };
  const contexts: BrowserContext[] = [];

  const newPage = async (viewport = { width: 1280, height: 900 }): Promise<Page> => {
    // bypassCSP: the accessibility scan injects axe-core inline, which the console's CSP forbids.
    const context = await browser.newContext({ viewport, bypassCSP: true, reducedMotion: 'reduce' });
    contexts.push(context);
    return context.newPage();
  };
  const notify = (body: Record<string, unknown>, token = integration.token, path = integration.path) => fx.notify(path, body, { token });
  const apiCounts = async () =>
    (await api(gw.baseUrl, 'GET', `/api/v4/projects/${project.id}/alert_management/alerts/status_counts`, { token: gw.rootToken })).body;
  const countOf = (page: Page, tab: string) => page.getByTestId(`count-${tab}`).innerText();

  beforeAll(async () => {
    consoleDir = buildConsole();
    [gw, browser] = await Promise.all([
      startTestGateway('web_console', { WEB_CONSOLE_DIR: consoleDir, INITIAL_ROOT_PASSWORD: ROOT_PASSWORD }),
      launchChromium(),
    ]);
    fx = new AlertingFixture(gw);
    project = await fx.project('payments', 'checkout');
    integration = await fx.integration(project.id, { active: true, name: 'prometheus' });
    for (const [name, level] of [
      ['dev', 30],
      ['rep', 20],
    ] as const) {
      await fx.user(name);
      await fx.member(project.id, name, level);
    }
    const seeds = [
      { title: 'Disk full on db-1', severity: 'critical', service: 'postgres', hosts: ['db-1'], labels: { team: 'storage', region: 'eu-1' } },
      { title: 'Latency above SLO', severity: 'high', service: 'checkout' },
      { title: 'Certificate expires in 20 days', severity: 'low', service: 'edge' },
      { title: 'Queue backlog', severity: 'medium', service: 'worker' },
    ];
    for (const seed of seeds) expect((await notify(seed)).status).toBe(200);
    // The queue backlog recovered.
    expect((await notify({ ...seeds[3], end_time: new Date().toISOString() })).status).toBe(200);
  });

  afterAll(async () => {
    for (const context of contexts) await context.close().catch(() => undefined);
    await browser?.close();
    await gw?.close();
    if (consoleDir) rmSync(consoleDir, { recursive: true, force: true });
  });

  it('serves the console under /-/console/ with its security headers, every route the same page', async () => {
    const page = await fetch(`${gw.baseUrl}/-/console/projects/1/alerts`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toContain('text/html');
    expect(page.headers.get('content-security-policy')).toContain("script-src 'self'");
    const html = await page.text();
    const asset = /src="(\/-\/console\/assets\/[^"]+\.js)"/.exec(html)?.[1];
    expect(asset).toBeDefined();
    const script = await fetch(`${gw.baseUrl}${asset}`);
    expect(script.status).toBe(200);
    expect(script.headers.get('cache-control')).toContain('immutable');
    expect((await fetch(`${gw.baseUrl}/-/console/assets/missing.js`)).status).toBe(404);
    // A path out of the directory is refused by the file server, never read.
    expect([403, 404]).toContain((await fetch(`${gw.baseUrl}/-/console/..%2f..%2fpackage.json`)).status);
  });

  it('signs root in with INITIAL_ROOT_PASSWORD, remembers the project, and lists alerts with tabs, counts and filters', async () => {
    const page = await newPage();
    await page.goto(`${gw.baseUrl}/-/console/`);
    await page.getByLabel('Username or email').fill('root');
    await page.getByLabel('Password').fill('wrong-password');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('alert').filter({ hasText: 'Invalid login or password' }).waitFor(UI_WAIT);
    expect(await axeViolations(page)).toEqual([]);

    await page.getByLabel('Password').fill(ROOT_PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page
      .getByRole('link', { name: project.fullPath.replace('/', ' / ') })
      .or(page.getByRole('link', { name: /checkout/ }))
      .first()
      .click(UI_WAIT);
    await page.getByRole('heading', { name: 'Alerts' }).waitFor(UI_WAIT);
    await page.locator('tr[data-iid]').first().waitFor(UI_WAIT);

    // Open tab: the three open alerts; the counts are the API's.
    const counts = await apiCounts();
    expect(counts).toMatchObject({ open: 3, triggered: 3, resolved: 1, all: 4 });
    for (const tab of ['open', 'triggered', 'acknowledged', 'resolved', 'all']) expect(await countOf(page, tab)).toBe(String(counts[tab]));
    expect(await page.locator('tr[data-iid]').count()).toBe(3);
    // Severity is shown by an icon and a word, not by colour alone.
    expect(await page.locator('tr', { hasText: 'Disk full on db-1' }).locator('.severity').innerText()).toMatch(/Critical/);
    // The chart: alerts started per hour over the last 24 hours (all four started now).
    await page.locator('figure.chart svg[aria-label*="24 hours: 4 in all"]').waitFor(UI_WAIT);
    await page.screenshot({ path: join(DOCS, 'console-alerts.png'), fullPage: true });

    await page.getByLabel('Severity').selectOption('critical');
    await page.waitForFunction(() => document.querySelectorAll('tr[data-iid]').length === 1, undefined, UI_WAIT);
    expect(await page.locator('tr[data-iid] .alert-title').innerText()).toContain('Disk full on db-1');
    await page.getByLabel('Severity').selectOption('');
    await page.getByLabel('Search').fill('latency');
    await page.getByRole('button', { name: 'Search' }).click();
    await page.waitForFunction(
      () => document.querySelectorAll('tr[data-iid]').length === 1 && document.body.innerText.includes('Latency above SLO'),
      undefined,
      UI_WAIT,
    );
    expect(new URL(page.url()).searchParams.get('search')).toBe('latency');
    await page.getByLabel('Search').fill('');
    await page.getByRole('button', { name: 'Search' }).click();
    await page.getByRole('link', { name: /^Resolved/ }).click();
    await page.waitForFunction(
      () => document.querySelectorAll('tr[data-iid]').length === 1 && document.body.innerText.includes('Queue backlog'),
      undefined,
      UI_WAIT,
    );
    await page.getByRole('link', { name: /^All/ }).click();
    await page.waitForFunction(() => document.querySelectorAll('tr[data-iid]').length === 4, undefined, UI_WAIT);

    // The project is remembered: the console's root goes straight to it.
    await page.goto(`${gw.baseUrl}/-/console/`);
    await page.waitForURL(`**/-/console/projects/${project.id}/alerts`, UI_WAIT);
  });

  it('shows an alert posted to the notify URL, and its repeat, live in the list and the counts', async () => {
    const page = await newPage();
    await signInThroughForm(page, gw.baseUrl, 'root', ROOT_PASSWORD);
    await page.goto(`${gw.baseUrl}/-/console/projects/${project.id}/alerts`);
    await page.getByRole('status').filter({ hasText: 'Live' }).waitFor(UI_WAIT);
    const openBefore = Number(await countOf(page, 'open'));

    expect((await notify({ title: 'Payment gateway 502s', severity: 'critical', fingerprint: 'pgw-502' })).status).toBe(200);
    const row = page.locator('tr[data-iid]', { hasText: 'Payment gateway 502s' });
    await row.waitFor(UI_WAIT);
    await page.waitForFunction((n) => document.querySelector('[data-testid="count-open"]')?.textContent === String(n), openBefore + 1, UI_WAIT);
    expect(await row.getAttribute('class')).toContain('fresh');

    expect((await notify({ title: 'Payment gateway 502s', severity: 'critical', fingerprint: 'pgw-502' })).status).toBe(200);
    await page.waitForFunction(
      () => {
        const cells = [...document.querySelectorAll('tr[data-iid]')].find((tr) => tr.textContent?.includes('Payment gateway 502s'))?.querySelectorAll('td');
        return cells?.[3]?.textContent === '2';
      },
      undefined,
      UI_WAIT,
    );

    expect((await notify({ title: 'Payment gateway 502s', severity: 'critical', fingerprint: 'pgw-502', end_time: new Date().toISOString() })).status).toBe(
      200,
    );
    await row.waitFor({ state: 'detached', ...UI_WAIT });
    await page.waitForFunction((n) => document.querySelector('[data-testid="count-open"]')?.textContent === String(n), openBefore, UI_WAIT);
  });

  it('acknowledges and resolves from the detail page (button and keyboard), as the API then shows', async () => {
    const page = await newPage();
    await signInThroughForm(page, gw.baseUrl, 'dev', USER_PASSWORD);
    await page.goto(`${gw.baseUrl}/-/console/projects/${project.id}/alerts/1`);
    await page.getByRole('heading', { name: /Disk full on db-1/ }).waitFor(UI_WAIT);
    // The payload details as a tree, the timeline, the counts.
    expect(await page.locator('.tree').first().innerText()).toMatch(/team: "storage"/);
    expect(await page.getByRole('region', { name: 'Timeline' }).innerText()).toContain('logged an alert from');
    await page.screenshot({ path: join(DOCS, 'console-alert-detail.png'), fullPage: true });

    await page.getByRole('button', { name: 'Acknowledge' }).click();
    await page.locator('.title-row .status', { hasText: 'Acknowledged' }).waitFor(UI_WAIT);
    await eventually(async () => (await fx.alert(project.id, 1)).status === 'acknowledged' || undefined, 'acknowledged in the API');
    await page.getByRole('button', { name: 'Assign to me' }).click();
    await page.getByTestId('assignees').filter({ hasText: '@dev' }).waitFor(UI_WAIT);
    await page.getByRole('region', { name: 'Timeline' }).filter({ hasText: 'changed the status to Acknowledged' }).waitFor(UI_WAIT);

    await page.keyboard.press('r');
    await page.locator('.title-row .status', { hasText: 'Resolved' }).waitFor(UI_WAIT);
    const resolved = await eventually(async () => {
      const alert = await fx.alert(project.id, 1);
      return alert.status === 'resolved' ? alert : undefined;
    }, 'resolved in the API');
    expect(resolved.assignees.map((u: { username: string }) => u.username)).toEqual(['dev']);

    // Create the incident in one click: the link to it replaces the button.
    await page.getByRole('button', { name: 'Create incident' }).click();
    await page
      .getByTestId('incident')
      .filter({ hasText: /Incident #\d+: Disk full on db-1 \(opened\)/ })
      .waitFor(UI_WAIT);
    expect(await page.getByRole('button', { name: 'Create incident' }).count()).toBe(0);
    expect((await fx.alert(project.id, 1)).issue_iid).toEqual(expect.any(Number));
    await page.keyboard.press('?');
    await page.getByRole('dialog', { name: 'Keyboard shortcuts' }).waitFor(UI_WAIT);
    expect(await axeViolations(page)).toEqual([]);
  });

  it('shows a reporter no action, and the API refuses the reporter and a write without the CSRF token', async () => {
    const page = await newPage();
    await signInThroughForm(page, gw.baseUrl, 'rep', USER_PASSWORD);
    await page.goto(`${gw.baseUrl}/-/console/projects/${project.id}/alerts/2`);
    await page.getByRole('heading', { name: /Latency above SLO/ }).waitFor(UI_WAIT);
    expect(await page.getByRole('button', { name: /Acknowledge|Resolve|Ignore|Assign to me|Create incident/ }).count()).toBe(0);
    expect(await page.getByRole('link', { name: 'Integrations' }).count()).toBe(0);

    const attempts = await page.evaluate(async (path) => {
      const session = (await (await fetch('/users/session')).json()) as { csrf_token: string };
      const put = (headers: Record<string, string>) =>
        fetch(path, { method: 'PUT', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify({ status: 'resolved' }) }).then(
          (r) => r.status,
        );
      return { withToken: await put({ 'x-csrf-token': session.csrf_token }), withoutToken: await put({}), wrongToken: await put({ 'x-csrf-token': 'forged' }) };
    }, `/api/v4/projects/${project.id}/alert_management/alerts/2`);
    // The reporter's own session and token: 403; a write without the session's token is not authenticated at all.
    expect(attempts).toEqual({ withToken: 403, withoutToken: 401, wrongToken: 401 });
    expect((await fx.alert(project.id, 2)).status).toBe('triggered');
  });

  it('creates an integration, shows its URL and key once, sends a test alert, deactivates it and resets its key', async () => {
    const page = await newPage();
    await signInThroughForm(page, gw.baseUrl, 'root', ROOT_PASSWORD);
    await page.goto(`${gw.baseUrl}/-/console/projects/${project.id}/integrations`);
    await page.getByLabel('Name').fill('grafana');
    await page.getByRole('button', { name: 'Create integration' }).click();
    const secrets = page.getByRole('region', { name: 'New credentials' });
    await secrets.waitFor(UI_WAIT);
    const url = await secrets.getByLabel('Webhook URL').inputValue();
    const key = await secrets.getByLabel('Authorization key').inputValue();
    expect(url).toContain(`/${project.fullPath}/alerts/notify/grafana/`);
    expect(key).toMatch(/^\w{20,}$/);
    await page.screenshot({ path: join(DOCS, 'console-integrations.png'), fullPage: true });
    expect(await axeViolations(page)).toEqual([]);
    const path = new URL(url).pathname;
    expect((await notify({ title: 'From Grafana', severity: 'info' }, key, path)).status).toBe(200);

    const item = page.locator('li[data-integration="grafana"]');
    await item.getByRole('button', { name: 'Send test alert' }).click();
    await page.getByRole('status').filter({ hasText: 'Test alert sent through grafana' }).waitFor(UI_WAIT);
    await eventually(async () => {
      const list = await api(gw.baseUrl, 'GET', `/api/v4/projects/${project.id}/alert_management/alerts?search=console`, { token: gw.rootToken });
      return list.body.length === 1 || undefined;
    }, 'the test alert stored');

    await item.getByRole('button', { name: 'Deactivate' }).click();
    await item.getByText('Inactive').waitFor(UI_WAIT);
    expect((await notify({ title: 'While inactive' }, key, path)).status).toBe(403);
    await item.getByRole('button', { name: 'Activate' }).click();
    await item.getByText('Active', { exact: true }).waitFor(UI_WAIT);

    await page.getByRole('button', { name: 'Done' }).click();
    await item.getByRole('button', { name: 'Reset key' }).click();
    await secrets.waitFor(UI_WAIT);
    const newKey = await secrets.getByLabel('Authorization key').inputValue();
    expect(newKey).not.toBe(key);
    expect((await notify({ title: 'Old key' }, key, path)).status).toBe(401);
    expect((await notify({ title: 'New key' }, newKey, path)).status).toBe(200);
  });

  it("creates a Prometheus integration whose URL is the project's prometheus/alerts/notify.json and takes an Alertmanager webhook", async () => {
    const page = await newPage();
    await signInThroughForm(page, gw.baseUrl, 'root', ROOT_PASSWORD);
    await page.goto(`${gw.baseUrl}/-/console/projects/${project.id}/integrations`);
    await page.getByLabel('Type').selectOption('prometheus');
    await page.getByLabel('Name').fill('alertmanager');
    await page.getByRole('button', { name: 'Create integration' }).click();
    const secrets = page.getByRole('region', { name: 'New credentials' });
    await secrets.waitFor(UI_WAIT);
    const url = await secrets.getByLabel('Webhook URL').inputValue();
    const key = await secrets.getByLabel('Authorization key').inputValue();
    expect(new URL(url).pathname).toBe(`/${project.fullPath}/prometheus/alerts/notify.json`);
    const webhook = {
      version: '4',
      groupKey: '{}:{alertname="ConsoleDiskFull"}',
      status: 'firing',
      receiver: 'service',
      groupLabels: { alertname: 'ConsoleDiskFull' },
      commonLabels: { alertname: 'ConsoleDiskFull' },
      commonAnnotations: {},
      externalURL: 'http://alertmanager.example:9093',
      alerts: [
        {
          status: 'firing',
          labels: { alertname: 'ConsoleDiskFull', instance: 'db-1' },
          annotations: { summary: 'Disk full on db-1' },
          startsAt: new Date().toISOString(),
          endsAt: '0001-01-01T00:00:00Z',
          generatorURL: '',
        },
      ],
    };
    const answer = await notify(webhook, key, new URL(url).pathname);
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual([expect.objectContaining({ title: 'Disk full on db-1' })]);

    const item = page.locator('li[data-integration="alertmanager"]');
    await item.getByText('Prometheus', { exact: true }).waitFor(UI_WAIT);
    await item.getByRole('button', { name: 'Send test alert' }).click();
    await page.getByRole('status').filter({ hasText: 'Test alert sent through alertmanager' }).waitFor(UI_WAIT);
  });

  it('lists system hooks with their health and recent deliveries, and resends one (administrators)', async () => {
    const receiver = await startHookReceiver();
    try {
      const created = await api(gw.baseUrl, 'POST', '/api/v4/hooks', { token: gw.rootToken, body: { url: `${receiver.url}/console` } });
      expect(created.status).toBe(201);
      await api(gw.baseUrl, 'POST', '/api/v4/groups', { token: gw.rootToken, body: { name: 'Hooked', path: 'hooked' } });
      await eventually(() => receiver.at('/console').length > 0 || undefined, 'a delivery', 20_000);
      const page = await newPage();
      await signInThroughForm(page, gw.baseUrl, 'root', ROOT_PASSWORD);
      await page.getByRole('link', { name: 'System hooks' }).click();
      const hook = page.locator('li', { hasText: `${receiver.url}/console` });
      await hook.getByText('Enabled').waitFor(UI_WAIT);
      await hook.getByRole('button', { name: 'Recent deliveries' }).click();
      const delivery = hook.locator('tbody tr', { hasText: 'group_create' });
      await delivery.waitFor(UI_WAIT);
      expect(await delivery.innerText()).toMatch(/200/);
      const before = receiver.at('/console').length;
      await delivery.getByRole('button', { name: 'Resend' }).click();
      await page.getByRole('status').filter({ hasText: 'queued again' }).waitFor(UI_WAIT);
      await eventually(() => receiver.at('/console').length > before || undefined, 'the resent delivery', 20_000);
    } finally {
      await receiver.close();
    }
  });

  it("signs out with the session's CSRF token: the session ends", async () => {
    const page = await newPage();
    await signInThroughForm(page, gw.baseUrl, 'dev', USER_PASSWORD);
    const signedIn = await page.evaluate(async () => (await fetch('/users/session', { credentials: 'same-origin' })).status);
    expect(signedIn).toBe(200);
    const signOut = page.waitForResponse((response) => response.url().endsWith('/users/sign_out'));
    await page.getByRole('button', { name: /Sign out @dev/ }).click();
    // The server refuses a sign-out without the token (401): 204 shows the console sent it.
    expect((await signOut).status()).toBe(204);
    await page.getByRole('button', { name: 'Sign in' }).waitFor(UI_WAIT);
    const afterwards = await page.evaluate(async () => (await fetch('/users/session', { credentials: 'same-origin' })).status);
    expect(afterwards).toBe(401);
  });

  it('fits a 360 px wide phone screen without horizontal scrolling, and passes the accessibility scan', async () => {
    const page = await newPage({ width: 360, height: 740 });
    await signInThroughForm(page, gw.baseUrl, 'dev', USER_PASSWORD);
    await page.goto(`${gw.baseUrl}/-/console/projects/${project.id}/alerts?tab=all`);
    await page.locator('tr[data-iid]').first().waitFor(UI_WAIT);
    const widths = await page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, client: document.documentElement.clientWidth }));
    expect(widths.scroll).toBeLessThanOrEqual(widths.client);
    // Rows become cards: each cell labelled.
    expect(
      await page
        .locator('tr[data-iid] td[data-label="Severity"]')
        .first()
        .evaluate((td) => getComputedStyle(td).display),
    ).toBe('flex');
    await page.screenshot({ path: join(DOCS, 'console-alerts-phone.png'), fullPage: false });
    expect(await axeViolations(page)).toEqual([]);
  });
});
