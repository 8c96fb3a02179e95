import { AlertingFixture } from './support/alerting-fixture';
import { api, startTestGateway, TestGateway } from './support/test-gateway';

/** Integrations and the notify endpoints over HTTP (ULTIMATE tier), committed rows and outbox events. */
describe('Alert ingestion', () => {
  let gw: TestGateway;
  let fx: AlertingFixture;
  let project: { id: number; fullPath: string };

  beforeAll(async () => {
    gw = await startTestGateway('alert-ingestion');
    fx = new AlertingFixture(gw);
    project = await fx.project('ops/pager', 'checkout');
  });
  afterAll(() => gw.close());

  const integrationsPath = () => `/api/v4/projects/${project.id}/alert_management/http_integrations`;

  describe('HTTP endpoint integrations', () => {
    it('creates an integration: url from EXTERNAL_URL, key shown once, then never', async () => {
      const created = await api(gw.baseUrl, 'POST', integrationsPath(), { token: gw.rootToken, body: { name: 'Prometheus Prod', create_incident: true } });
      expect(created.status).toBe(201);
      expect(created.body).toMatchObject({
        name: 'Prometheus Prod',
        active: true,
        create_incident: true,
        auto_close_incident: true,
        payload_example: null,
        payload_attribute_mappings: [],
      });
      expect(created.body.url).toMatch(new RegExp(`^${gw.config.http.externalUrl}/ops/pager/checkout/alerts/notify/prometheus-prod/[0-9a-f]{16}\\.json$`));
      expect(created.body.token).toMatch(/^[0-9a-f]{64}$/);

      const shown = await api(gw.baseUrl, 'GET', `${integrationsPath()}/${created.body.id}`, { token: gw.rootToken });
      expect(shown.status).toBe(200);
      expect(shown.body.token).toBeNull();
      expect(shown.body.url).toBe(created.body.url);
      const listed = await api(gw.baseUrl, 'GET', integrationsPath(), { token: gw.rootToken });
      expect(listed.body.map((i: any) => i.token)).toEqual([null]);

      const [row] = await gw.dataSource.query('SELECT token_digest FROM alert_http_integrations WHERE id = $1', [created.body.id]);
      expect(row.token_digest).not.toContain(created.body.token);
      expect(row.token_digest).toHaveLength(64);
    });

    it('names are unique per project; payload_example must be JSON; mappings are checked', async () => {
      const taken = await api(gw.baseUrl, 'POST', integrationsPath(), { token: gw.rootToken, body: { name: 'Prometheus Prod' } });
      expect(taken.status).toBe(400);
      expect(taken.body).toEqual({ message: { name: ['has already been taken'] } });
      const missing = await api(gw.baseUrl, 'POST', integrationsPath(), { token: gw.rootToken, body: {} });
      expect(missing.status).toBe(400);
      expect(missing.body).toEqual({ message: '400 (Bad request) "name" not given' });
      const badExample = await api(gw.baseUrl, 'POST', integrationsPath(), { token: gw.rootToken, body: { name: 'x', payload_example: '{not json' } });
      expect(badExample.status).toBe(400);
      expect(badExample.body).toEqual({ message: { payload_example: ['must be valid JSON'] } });
      const badMapping = await api(gw.baseUrl, 'POST', integrationsPath(), {
        token: gw.rootToken,
        body: { name: 'x', payload_attribute_mappings: [{ field_name: 'colour', path: [], type: 'string' }] },
      });
      expect(badMapping.status).toBe(400);
      expect(badMapping.body.message.payload_attribute_mappings).toEqual([
        expect.stringContaining('field_name must be one of'),
        'entry 0: path must be a non-empty array of keys',
      ]);
    });

    it('updates, resets the key (old key stops working), deletes; maintainers only', async () => {
      const integration = await fx.integration(project.id, { name: 'To change' });
      const updated = await api(gw.baseUrl, 'PUT', `${integrationsPath()}/${integration.id}`, {
        token: gw.rootToken,
        body: { name: 'Changed', active: false, auto_close_incident: false },
      });
      expect(updated.status).toBe(200);
      expect(updated.body).toMatchObject({ name: 'Changed', active: false, auto_close_incident: false, token: null });

      const reset = await api(gw.baseUrl, 'POST', `${integrationsPath()}/${integration.id}/reset_token`, { token: gw.rootToken });
      expect(reset.status).toBe(200);
      expect(reset.body.token).toMatch(/^[0-9a-f]{64}$/);
      expect(reset.body.token).not.toBe(integration.token);
      await api(gw.baseUrl, 'PUT', `${integrationsPath()}/${integration.id}`, { token: gw.rootToken, body: { active: true } });
      expect((await fx.notify(integration.path, { title: 'x' }, { token: integration.token })).status).toBe(401);
      expect((await fx.notify(integration.path, { title: 'x' }, { token: reset.body.token })).status).toBe(200);

      await fx.user('dev1');
      await fx.member(project.id, 'dev1', 30);
      const byDeveloper = await api(gw.baseUrl, 'GET', integrationsPath(), { token: fx.tokens.dev1 });
      expect(byDeveloper.status).toBe(403);
      const deleted = await api(gw.baseUrl, 'DELETE', `${integrationsPath()}/${integration.id}`, { token: gw.rootToken });
      expect(deleted.status).toBe(204);
      expect((await api(gw.baseUrl, 'GET', `${integrationsPath()}/${integration.id}`, { token: gw.rootToken })).status).toBe(404);
      expect((await api(gw.baseUrl, 'GET', `${integrationsPath()}/abc`, { token: gw.rootToken })).status).toBe(404);
    });
  });

  describe('notify endpoint: cached integrations', () => {
    it('sees a key reset, a deactivation and a deletion at once, though the integration was cached', async () => {
      const integration = await fx.integration(project.id, { name: 'Cached' });
      // Served (and cached) before each change.
      expect((await fx.notify(integration.path, { title: 'warm' }, { token: integration.token })).status).toBe(200);
      const reset = await api(gw.baseUrl, 'POST', `${integrationsPath()}/${integration.id}/reset_token`, { token: gw.rootToken });
      expect((await fx.notify(integration.path, { title: 'x' }, { token: integration.token })).status).toBe(401);
      expect((await fx.notify(integration.path, { title: 'x' }, { token: reset.body.token })).status).toBe(200);

      await api(gw.baseUrl, 'PUT', `${integrationsPath()}/${integration.id}`, { token: gw.rootToken, body: { active: false } });
      expect((await fx.notify(integration.path, { title: 'x' }, { token: reset.body.token })).status).toBe(403);
      await api(gw.baseUrl, 'PUT', `${integrationsPath()}/${integration.id}`, { token: gw.rootToken, body: { active: true } });
      expect((await fx.notify(integration.path, { title: 'x' }, { token: reset.body.token })).status).toBe(200);

      expect((await api(gw.baseUrl, 'DELETE', `${integrationsPath()}/${integration.id}`, { token: gw.rootToken })).status).toBe(204);
      expect((await fx.notify(integration.path, { title: 'x' }, { token: reset.body.token })).status).toBe(404);
    });
  });

  describe('notify endpoint: credentials and limits', () => {
    let integration: { id: number; path: string; token: string };
    beforeAll(async () => {
      integration = await fx.integration(project.id, { name: 'Credentials' });
    });

    it('accepts the key as Bearer and as Basic password with an empty user', async () => {
      const bearer = await fx.notify(integration.path, { title: 'bearer', fingerprint: 'cred-1' }, { token: integration.token });
      expect(bearer.status).toBe(200);
      expect(bearer.body).toEqual([{ iid: expect.any(Number), title: 'bearer' }]);
      const basic = await fx.notify(integration.path, { title: 'basic', fingerprint: 'cred-2' }, { basic: integration.token });
      expect(basic.status).toBe(200);
      expect(basic.body).toEqual([{ iid: bearer.body[0].iid + 1, title: 'basic' }]);
    });

    it('401 without or with a wrong key, 403 when inactive, 404 for an unknown integration or project', async () => {
      const none = await fx.notify(integration.path, { title: 'x' });
      expect(none.status).toBe(401);
      expect(none.body).toEqual({ message: '401 Unauthorized' });
      expect((await fx.notify(integration.path, { title: 'x' }, { token: 'wrong' })).status).toBe(401);
      expect((await fx.notify(integration.path, { title: 'x' }, { basic: `${integration.token}x` })).status).toBe(401);
      expect((await fx.notify(integration.path, { title: 'x' }, { headers: { authorization: `Token ${integration.token}` } })).status).toBe(401);

      const unknown = await fx.notify(integration.path.replace(/[0-9a-f]{16}\.json$/, '0000000000000000.json'), { title: 'x' }, { token: integration.token });
      expect(unknown.status).toBe(404);
      expect(unknown.body).toEqual({ message: '404 Integration Not Found' });
      expect((await fx.notify(integration.path.replace('/checkout/', '/nope/'), { title: 'x' }, { token: integration.token })).status).toBe(404);

      const inactive = await fx.integration(project.id, { name: 'Inactive', active: false });
      const refused = await fx.notify(inactive.path, { title: 'x' }, { token: inactive.token });
      expect(refused.status).toBe(403);
      expect(refused.body).toEqual({ message: '403 Forbidden - the integration is inactive' });
      expect((await fx.notify(inactive.path, { title: 'x' }, { token: 'wrong' })).status).toBe(401);
    });

    it('serves the project first integration at alerts/notify.json, also for nested group paths', async () => {
      const other = await fx.project('deep/a/b/c', 'svc');
      const first = await fx.integration(other.id, { name: 'First' });
      await fx.integration(other.id, { name: 'Second' });
      const response = await fx.notify(`/deep/a/b/c/svc/alerts/notify.json`, { title: 'legacy' }, { token: first.token });
      expect(response.status).toBe(200);
      expect(response.body).toEqual([{ iid: 1, title: 'legacy' }]);
      expect((await fx.notify(`/deep/a/b/c/svc/alerts/notify.json`, { title: 'legacy' }, { token: 'wrong' })).status).toBe(401);
      expect(
        (await fx.notify(`/deep/a/b/c/svc/alerts/notify/first/${first.path.split('/').pop()!.replace('.json', '')}`, {}, { token: first.token })).status,
      ).toBe(404);
    });

    it('refuses, with a clear 400, bodies over 1 MB, nested deeper than 100, or not a JSON object', async () => {
      const big = await fx.notify(integration.path, null, { token: integration.token, raw: JSON.stringify({ title: 'x', blob: 'y'.repeat(1_100_000) }) });
      expect(big.status).toBe(400);
      expect(big.body).toEqual({ message: '400 Bad request - the alert payload is larger than 1048576 bytes' });
      const deep = await fx.notify(integration.path, null, { token: integration.token, raw: `{"a":${'['.repeat(101)}${']'.repeat(101)}}` });
      expect(deep.status).toBe(400);
      expect(deep.body).toEqual({ message: '400 Bad request - the alert payload is nested deeper than 100 levels' });
      for (const raw of ['[{"title":"x"}]', '"x"', '', '42']) {
        const response = await fx.notify(integration.path, null, { token: integration.token, raw });
        expect(response.status).toBe(400);
        expect(response.body).toEqual({ message: '400 Bad request - the alert payload must be a JSON object' });
      }
      const textPlain = await fx.notify(integration.path, null, { token: integration.token, raw: '{"title":"x"}', headers: { 'content-type': 'text/plain' } });
      expect(textPlain.status).toBe(415);
      const wrongMethod = await fetch(`${gw.baseUrl}${integration.path}`, { headers: { authorization: `Bearer ${integration.token}` } });
      expect({ status: wrongMethod.status, body: await wrongMethod.json() }).toEqual({ status: 405, body: { error: '405 Method Not Allowed' } });
      const malformed = await fx.notify(integration.path, null, { token: integration.token, raw: '{"title":' });
      expect(malformed.status).toBe(400);
      expect(malformed.body).toEqual({ message: '400 Bad request - the alert payload is not valid JSON' });
    });
  });

  describe('normalization, fingerprints, grouping and resolution', () => {
    let integration: { id: number; path: string; token: string };
    const send = (payload: unknown) => fx.notify(integration.path, payload, { token: integration.token });

    beforeAll(async () => {
      integration = await fx.integration(project.id, { name: 'Engine' });
    });

    it('stores a minimal payload with every default', async () => {
      const before = Date.now();
      const response = await send({});
      expect(response.status).toBe(200);
      expect(response.body).toEqual([{ iid: expect.any(Number), title: 'New: Alert' }]);
      const alert = await fx.alert(project.id, response.body[0].iid);
      expect(alert).toMatchObject({
        title: 'New: Alert',
        severity: 'critical',
        status: 'triggered',
        event_count: 1,
        ended_at: null,
        hosts: [],
        details: {},
        description: null,
        integration: { id: integration.id, name: 'Engine' },
      });
      expect(new Date(alert.started_at).getTime()).toBeGreaterThanOrEqual(before - 1000);
    });

    it('stores every attribute, maps severity case-insensitively, keeps extra attributes in details, truncates', async () => {
      const response = await send({
        title: 'T'.repeat(300),
        description: 'Disk 95%',
        start_time: '2026-01-05T10:00:00Z',
        service: 'postgres',
        monitoring_tool: 'Zabbix',
        hosts: 'db-1',
        severity: 'MeDiUm',
        service_environment_name: 'production',
        runbook: 'https://runbooks/disk',
        labels: { team: 'dba', shards: [1, 2] },
      });
      const alert = await fx.alert(project.id, response.body[0].iid);
      expect(alert).toMatchObject({
        title: 'T'.repeat(200),
        description: 'Disk 95%',
        started_at: '2026-01-05T10:00:00.000Z',
        service: 'postgres',
        monitoring_tool: 'Zabbix',
        hosts: ['db-1'],
        severity: 'medium',
        environment: 'production',
        details: { runbook: 'https://runbooks/disk', labels: { team: 'dba', shards: [1, 2] } },
      });
      expect((await fx.alert(project.id, (await send({ severity: 'disaster' })).body[0].iid)).severity).toBe('critical');
      const unparsable = await send({ title: 'odd time', start_time: 'not a time' });
      expect(unparsable.status).toBe(200);
    });

    it('groups repeats of a string, number or array fingerprint, and keeps ["a","bc"] apart from "abc"', async () => {
      for (const fingerprint of ['svc-down', 4242, ['a', 'bc']]) {
        const first = await send({ title: `fp ${JSON.stringify(fingerprint)}`, fingerprint });
        const second = await send({ title: 'repeat', fingerprint });
        expect(second.body).toEqual([{ iid: first.body[0].iid, title: first.body[0].title }]);
        expect((await fx.alert(project.id, first.body[0].iid)).event_count).toBe(2);
      }
      const joined = await send({ title: 'joined', fingerprint: 'abc' });
      const array = await send({ title: 'array', fingerprint: ['a', 'bc'] });
      expect(joined.body[0].iid).not.toBe(array.body[0].iid);
      const asString = await send({ title: 'number as string', fingerprint: '4242' });
      const asNumber = await send({ title: 'number', fingerprint: 4242 });
      expect(asString.body[0].iid).not.toBe(asNumber.body[0].iid);
    });

    it('100 concurrent posts of one fingerprint make one alert with 100 events, iids stay gap-free', async () => {
      const responses = await Promise.all(Array.from({ length: 100 }, () => send({ title: 'storm', fingerprint: 'storm-1' })));
      expect(responses.map((r) => r.status)).toEqual(Array(100).fill(200));
      const iids = new Set(responses.map((r) => r.body[0].iid));
      expect(iids.size).toBe(1);
      const rows = await gw.dataSource.query(`SELECT iid, event_count FROM alerts WHERE project_id = $1 AND fingerprint IS NOT NULL AND title = 'storm'`, [
        project.id,
      ]);
      expect(rows).toEqual([{ iid: [...iids][0], event_count: 100 }]);
      // alert.created, then at most one event per batch for its repeats (alert.grouped in the batch that created it, then
      // alert.repeats); the last carries the count.
      const iid = [...iids][0];
      const events: Array<{ type: string; data: any }> = await gw.dataSource.query(
        `SELECT payload->>'type' AS type, payload->'data' AS data FROM outbox_events WHERE payload->>'type' IN ('alert.created','alert.grouped','alert.repeats') AND payload->>'project_id' = $1 ORDER BY seq`,
        [String(project.id)],
      );
      const counts = events.flatMap((r) => (r.type === 'alert.repeats' ? r.data.alerts : [r.data])).filter((a: { iid: number }) => a.iid === iid);
      expect(counts[0]).toMatchObject({ event_count: 1 });
      expect(counts.length).toBeLessThanOrEqual(100);
      expect(counts.at(-1).event_count).toBe(100);

      const concurrentNew = await Promise.all(Array.from({ length: 30 }, (_, i) => send({ title: `new ${i}`, fingerprint: `distinct-${i}` })));
      expect(concurrentNew.every((r) => r.status === 200)).toBe(true);
      const all = await gw.dataSource.query('SELECT iid FROM alerts WHERE project_id = $1 ORDER BY iid', [project.id]);
      expect(all.map((r: { iid: number }) => r.iid)).toEqual(Array.from({ length: all.length }, (_, i) => i + 1));
    });

    it('resolves the open alert on end_time, opens a new alert on a later repeat, accepts an unmatched recovery', async () => {
      const opened = await send({ title: 'Latency', fingerprint: 'latency-1', start_time: '2026-02-01T00:00:00Z' });
      const resolved = await send({ title: 'Latency', fingerprint: 'latency-1', end_time: '2026-02-01T00:30:00Z' });
      expect(resolved.status).toBe(200);
      expect(resolved.body).toEqual([{ iid: opened.body[0].iid, title: 'Latency' }]);
      const alert = await fx.alert(project.id, opened.body[0].iid);
      // Only triggering payloads count: the recovery resolves without registering an event.
      expect(alert).toMatchObject({ status: 'resolved', ended_at: '2026-02-01T00:30:00.000Z', event_count: 1 });

      const again = await send({ title: 'Latency', fingerprint: 'latency-1' });
      expect(again.body[0].iid).not.toBe(opened.body[0].iid);
      expect((await fx.alert(project.id, again.body[0].iid)).status).toBe('triggered');

      const orphan = await send({ title: 'Never fired', fingerprint: 'ghost', end_time: '2026-02-01T00:30:00Z' });
      expect(orphan.status).toBe(200);
      expect(orphan.body).toEqual([]);
      const kept = await gw.dataSource.query('SELECT title, ended_at FROM alert_unmatched_recoveries WHERE project_id = $1', [project.id]);
      expect(kept).toEqual([{ title: 'Never fired', ended_at: new Date('2026-02-01T00:30:00Z') }]);

      const types = await gw.dataSource.query(
        `SELECT payload->>'type' AS type FROM outbox_events WHERE payload->>'type' LIKE 'alert.%' AND (payload->'target'->>'iid' = $1 OR payload->>'type' = 'alert.recovery_unmatched') ORDER BY seq`,
        [String(opened.body[0].iid)],
      );
      expect(types.map((t: { type: string }) => t.type)).toEqual(['alert.created', 'alert.resolved', 'alert.recovery_unmatched']);
      const [resolvedEvent] = await gw.dataSource.query(
        `SELECT payload FROM outbox_events WHERE payload->>'type' = 'alert.resolved' AND payload->'target'->>'iid' = $1`,
        [String(opened.body[0].iid)],
      );
      expect(resolvedEvent.payload).toMatchObject({
        project_id: project.id,
        target: { type: 'alert', iid: opened.body[0].iid, title: 'Latency' },
        data: {
          status: 'resolved',
          previous_status: 'triggered',
          ended_at: '2026-02-01T00:30:00.000Z',
          integration: { id: integration.id, create_incident: false, auto_close_incident: true },
        },
      });
    });

    it('PREMIUM and above: identical payloads without fingerprint group (start_time, end_time and hosts aside); a recovery resolves them', async () => {
      const first = await send({ title: 'Same', service: 'queue', labels: { b: 2, a: 1 }, start_time: '2026-01-01T00:00:00Z', hosts: ['h1'] });
      const second = await send({ labels: { a: 1, b: 2 }, service: 'queue', title: 'Same', start_time: '2026-01-01T01:00:00Z', hosts: 'h2' });
      expect(second.body[0].iid).toBe(first.body[0].iid);
      const different = await send({ title: 'Same', service: 'queue', labels: { a: 1, b: 3 } });
      expect(different.body[0].iid).not.toBe(first.body[0].iid);
      const recovery = await send({ title: 'Same', service: 'queue', labels: { a: 1, b: 2 }, end_time: '2026-01-01T02:00:00Z' });
      expect(recovery.body[0].iid).toBe(first.body[0].iid);
      expect((await fx.alert(project.id, first.body[0].iid)).status).toBe('resolved');
    });

    it('custom mapping (PREMIUM): mapped paths with types, default attributes as fallback', async () => {
      const mapped = await fx.integration(project.id, {
        name: 'Mapped',
        payload_example: JSON.stringify({ alert: { name: 'x', level: 'high', id: 'a-1' }, when: { start: '2026-01-01T00:00:00Z' }, targets: ['h'] }),
        payload_attribute_mappings: [
          { field_name: 'title', path: ['alert', 'name'], type: 'string', label: 'Alert name' },
          { field_name: 'severity', path: ['alert', 'level'], type: 'string' },
          { field_name: 'fingerprint', path: ['alert', 'id'], type: 'string' },
          { field_name: 'start_time', path: ['when', 'start'], type: 'datetime' },
          { field_name: 'end_time', path: ['when', 'end'], type: 'datetime' },
          { field_name: 'hosts', path: ['targets'], type: 'array' },
        ],
      });
      const shown = await api(gw.baseUrl, 'GET', `${integrationsPath()}/${mapped.id}`, { token: gw.rootToken });
      expect(shown.body.payload_attribute_mappings[0]).toEqual({ field_name: 'title', path: ['alert', 'name'], type: 'string', label: 'Alert name' });

      const response = await fx.notify(
        mapped.path,
        { alert: { name: 'Broker down', level: 'LOW', id: 'kafka-1' }, when: { start: '2026-03-01T00:00:00Z' }, targets: ['k1', 'k2'] },
        { token: mapped.token },
      );
      expect(response.body).toEqual([{ iid: expect.any(Number), title: 'Broker down' }]);
      const alert = await fx.alert(project.id, response.body[0].iid);
      expect(alert).toMatchObject({ title: 'Broker down', severity: 'low', started_at: '2026-03-01T00:00:00.000Z', hosts: ['k1', 'k2'] });

      const fallback = await fx.notify(mapped.path, { title: 'Plain', severity: 'info', alert: {} }, { token: mapped.token });
      expect(await fx.alert(project.id, fallback.body[0].iid)).toMatchObject({ title: 'Plain', severity: 'info' });

      const recovered = await fx.notify(
        mapped.path,
        { alert: { name: 'Broker down', id: 'kafka-1' }, when: { end: '2026-03-01T01:00:00Z' } },
        { token: mapped.token },
      );
      expect(recovered.body[0].iid).toBe(response.body[0].iid);
      expect((await fx.alert(project.id, response.body[0].iid)).ended_at).toBe('2026-03-01T01:00:00.000Z');
    });

    it('test alert (developer and above) goes through the same pipeline', async () => {
      await fx.user('dev2');
      await fx.user('rep2');
      await fx.member(project.id, 'dev2', 30);
      await fx.member(project.id, 'rep2', 20);
      const path = `${integrationsPath()}/${integration.id}/test`;
      const response = await api(gw.baseUrl, 'POST', path, { token: fx.tokens.dev2, body: { title: 'Test alert', fingerprint: 'test-1', severity: 'low' } });
      expect(response.status).toBe(200);
      expect(response.body).toEqual([{ iid: expect.any(Number), title: 'Test alert' }]);
      const repeat = await api(gw.baseUrl, 'POST', path, { token: fx.tokens.dev2, body: { title: 'Test alert', fingerprint: 'test-1' } });
      expect(repeat.body[0].iid).toBe(response.body[0].iid);
      expect((await fx.alert(project.id, response.body[0].iid)).event_count).toBe(2);
      expect((await api(gw.baseUrl, 'POST', path, { token: fx.tokens.rep2, body: { title: 'x' } })).status).toBe(403);
      const [event] = await gw.dataSource.query(
        `SELECT payload FROM outbox_events WHERE payload->>'type' = 'alert.created' AND payload->'target'->>'iid' = $1 AND payload->>'project_id' = $2`,
        [String(response.body[0].iid), String(project.id)],
      );
      expect(event.payload.actor).toBe(fx.userIds.dev2);
    });

    it('exposes ingestion metrics', async () => {
      const metrics = await fetch(`${gw.baseUrl}/-/metrics`).then((r) => r.text());
      expect(metrics).toMatch(/^alerts_received_total \d+/m);
      expect(metrics).toMatch(/^alerts_created_total \d+/m);
      expect(metrics).toMatch(/^alerts_grouped_total \d+/m);
      expect(metrics).toMatch(/^alerts_resolved_total \d+/m);
      expect(metrics).toMatch(/^alerts_rejected_total\{reason="unauthorized"\} \d+/m);
      expect(metrics).toMatch(/^alert_ingestion_duration_seconds_count \d+/m);
    });
  });
});
