import type { INestApplicationContext } from '@nestjs/common';
import { ALERT_EVENTS, CreateAlertIncidentUseCase } from '@app/alerting';
import { DomainEvent, KafkaClient, messageKeyOf, TOPICS } from '@app/messaging';
import { eventually } from '@app/testing';
import { Partitioners } from 'kafkajs';
import { startAlertEngine } from '../../apps/alert-engine/src/main';
import { AlertingFixture } from './support/alerting-fixture';
import { api, startTestGateway, TestGateway } from './support/test-gateway';

jest.setTimeout(120_000);

/**
 * The alert lifecycle through the real stack: the gateway ingests alerts and relays their
 * events to Kafka; an alert-engine application context (same database, topic and Redis
 * prefixes) consumes them, opens incidents and closes them on recovery.
 */
describe('Alert lifecycle (alert engine)', () => {
  let gw: TestGateway;
  let engine: INestApplicationContext;
  let fx: AlertingFixture;
  let project: { id: number; fullPath: string };

  beforeAll(async () => {
    gw = await startTestGateway('alert-lifecycle');
    engine = await startAlertEngine(gw.config);
    fx = new AlertingFixture(gw);
    project = await fx.project('oncall', 'payments');
  });
  afterAll(async () => {
    await engine?.close();
    await gw?.close();
  });

  const incidentOf = (iid: number) =>
    eventually(async () => {
      const alert = await fx.alert(project.id, iid);
      return alert.issue_iid === null ? undefined : alert;
    }, `the incident of alert ${iid}`);
  const issue = async (iid: number) => api(gw.baseUrl, 'GET', `/api/v4/projects/${project.id}/issues/${iid}`, { token: gw.rootToken });
  const notes = async (iid: number): Promise<string[]> => {
    const response = await api(gw.baseUrl, 'GET', `/api/v4/projects/${project.id}/alert_management/alerts/${iid}/notes`, { token: gw.rootToken });
    return response.body.map((n: any) => n.body);
  };
  const incidentCount = async (title: string): Promise<number> =>
    Number((await gw.dataSource.query(`SELECT count(*)::int AS n FROM issues WHERE project_id = $1 AND title = $2`, [project.id, title]))[0].n);

  it('opens an incident (type, severity, title, description) linked both ways, and closes it on recovery', async () => {
    const integration = await fx.integration(project.id, { create_incident: true, auto_close_incident: true });
    const sent = await fx.notify(
      integration.path,
      { title: 'Disk full on db-1', description: 'Only 1% left', severity: 'high', fingerprint: 'disk-db-1' },
      { token: integration.token },
    );
    expect(sent.status).toBe(200);
    const alertIid = sent.body[0].iid;

    const alert = await incidentOf(alertIid);
    const opened = await issue(alert.issue_iid);
    expect(opened.status).toBe(200);
    expect(opened.body).toMatchObject({
      iid: alert.issue_iid,
      title: 'Disk full on db-1',
      description: 'Only 1% left',
      issue_type: 'incident',
      severity: 'HIGH',
      state: 'opened',
    });
    expect(opened.body.author.username).toBe('alert-bot');
    const [link] = await gw.dataSource.query(`SELECT a.iid FROM alerts a JOIN issues i ON i.id = a.issue_id WHERE i.project_id = $1 AND i.iid = $2`, [
      project.id,
      alert.issue_iid,
    ]);
    expect(link.iid).toBe(alertIid);
    expect(await notes(alertIid)).toContain(`created incident #${alert.issue_iid} for this alert`);

    const recovered = await fx.notify(
      integration.path,
      { title: 'Disk full on db-1', fingerprint: 'disk-db-1', end_time: new Date().toISOString() },
      { token: integration.token },
    );
    expect(recovered.status).toBe(200);
    const closed = await eventually(async () => {
      const current = await issue(alert.issue_iid);
      return current.body.state === 'closed' ? current.body : undefined;
    }, 'the incident to close');
    expect(closed.closed_by.username).toBe('alert-bot');
    expect(await notes(alertIid)).toContain(`closed incident #${alert.issue_iid}`);
  });

  it('closes the incident of an alert a user resolves, and records every status change as a state event', async () => {
    const integration = await fx.integration(project.id, { create_incident: true, auto_close_incident: true });
    const sent = await fx.notify(integration.path, { title: 'Latency SLO burn', fingerprint: 'slo-1' }, { token: integration.token });
    const alertIid = sent.body[0].iid;
    const alert = await incidentOf(alertIid);
    const root = (await api(gw.baseUrl, 'GET', '/api/v4/user', { token: gw.rootToken })).body;

    const put = (status: string) =>
      api(gw.baseUrl, 'PUT', `/api/v4/projects/${project.id}/alert_management/alerts/${alertIid}`, { token: gw.rootToken, body: { status } });
    expect((await put('acknowledged')).status).toBe(200);
    expect((await put('resolved')).status).toBe(200);
    const closed = await eventually(async () => {
      const current = await issue(alert.issue_iid);
      return current.body.state === 'closed' ? current.body : undefined;
    }, 'the incident of the alert resolved by a user to close');
    expect(closed.closed_by.username).toBe('alert-bot');
    expect(await notes(alertIid)).toContain(`closed incident #${alert.issue_iid}`);

    const stateEvents = (id: number, count: number) =>
      eventually(async () => {
        const rows = await gw.dataSource.query(`SELECT user_id, state, previous_state FROM alert_state_events WHERE alert_id = $1 ORDER BY id`, [id]);
        return rows.length >= count ? rows : undefined;
      }, `${count} state events of alert ${id}`);
    expect(await stateEvents(alert.id, 2)).toEqual([
      { user_id: root.id, state: 'acknowledged', previous_state: 'triggered' },
      { user_id: root.id, state: 'resolved', previous_state: 'acknowledged' },
    ]);

    // A recovery payload: a state event without user.
    const other = await fx.notify(integration.path, { title: 'Error rate', fingerprint: 'errors-1' }, { token: integration.token });
    await fx.notify(integration.path, { title: 'Error rate', fingerprint: 'errors-1', end_time: new Date().toISOString() }, { token: integration.token });
    const otherAlert = await fx.alert(project.id, other.body[0].iid);
    expect(await stateEvents(otherAlert.id, 1)).toEqual([{ user_id: null, state: 'resolved', previous_state: 'triggered' }]);
  });

  it('handles a redelivered event once: one incident, one note', async () => {
    const integration = await fx.integration(project.id, { create_incident: true, auto_close_incident: false });
    const sent = await fx.notify(integration.path, { title: 'Queue backlog', fingerprint: 'queue-1' }, { token: integration.token });
    const alertIid = sent.body[0].iid;
    const alert = await incidentOf(alertIid);

    // The same envelope (same event id) published twice more, as a redelivery would.
    const [row] = await gw.dataSource.query(
      `SELECT payload FROM outbox_events WHERE payload->>'type' = $1 AND (payload->'data'->>'iid')::int = $2 AND (payload->>'project_id')::int = $3`,
      [ALERT_EVENTS.CREATED, alertIid, project.id],
    );
    const event = row.payload as DomainEvent;
    const kafka = engine.get(KafkaClient);
    const producer = kafka.kafka.producer({ createPartitioner: Partitioners.DefaultPartitioner });
    await producer.connect();
    try {
      const message = { key: messageKeyOf(event), value: JSON.stringify(event) };
      await producer.send({ topic: kafka.topic(TOPICS.DOMAIN_EVENTS), messages: [message, message] });
    } finally {
      await producer.disconnect();
    }
    // A later alert of the same project (same partition, so handled after the copies) as the barrier.
    const barrier = await fx.notify(integration.path, { title: 'Barrier', fingerprint: 'barrier-1' }, { token: integration.token });
    await incidentOf(barrier.body[0].iid);

    expect(await incidentCount('Queue backlog')).toBe(1);
    expect((await fx.alert(project.id, alertIid)).issue_iid).toBe(alert.issue_iid);
    expect((await notes(alertIid)).filter((n) => n.startsWith('created incident'))).toHaveLength(1);
  });

  it('opens one incident per alert when consumers race on different deliveries of it', async () => {
    const integration = await fx.integration(project.id, { create_incident: false });
    const sent = await fx.notify(integration.path, { title: 'Race', fingerprint: 'race-1' }, { token: integration.token });
    const [alert] = await gw.dataSource.query(`SELECT id FROM alerts WHERE project_id = $1 AND iid = $2`, [project.id, sent.body[0].iid]);
    const useCase = engine.get(CreateAlertIncidentUseCase);
    const deliveries = Array.from({ length: 4 }, (_, n) => ({
      id: `00000000-0000-4000-8000-00000000000${n}`,
      type: ALERT_EVENTS.CREATED,
      version: 1,
      occurred_at: new Date().toISOString(),
      actor: null,
      project_id: project.id,
      group_id: null,
      target: null,
      data: { alert_id: alert.id },
    }));
    // Two copies of each of four event ids, all at once.
    const outcomes = await Promise.all([...deliveries, ...deliveries].map((event) => useCase.execute(event, alert.id)));
    expect(outcomes.filter((o) => o === 'done')).toHaveLength(1);
    expect(outcomes.filter((o) => o === 'duplicate')).toHaveLength(4);
    expect(await incidentCount('Race')).toBe(1);
  });

  it('opens no incident when the integration does not ask for one, and closes none when auto-close is off', async () => {
    const quiet = await fx.integration(project.id, { create_incident: false });
    const sent = await fx.notify(quiet.path, { title: 'Quiet alert', fingerprint: 'quiet-1' }, { token: quiet.token });
    const keepOpen = await fx.integration(project.id, { create_incident: true, auto_close_incident: false });
    const kept = await fx.notify(keepOpen.path, { title: 'Kept open', fingerprint: 'kept-1' }, { token: keepOpen.token });
    const keptAlert = await incidentOf(kept.body[0].iid);
    await fx.notify(keepOpen.path, { title: 'Kept open', fingerprint: 'kept-1', end_time: new Date().toISOString() }, { token: keepOpen.token });
    // Barrier: handled after both alerts' events (same project, same partition).
    const barrier = await fx.notify(keepOpen.path, { title: 'Barrier 2', fingerprint: 'barrier-2' }, { token: keepOpen.token });
    await incidentOf(barrier.body[0].iid);

    expect((await fx.alert(project.id, sent.body[0].iid)).issue_iid).toBeNull();
    expect(await incidentCount('Quiet alert')).toBe(0);
    expect((await fx.alert(project.id, kept.body[0].iid)).status).toBe('resolved');
    expect((await issue(keptAlert.issue_iid)).body.state).toBe('opened');
  });
});
