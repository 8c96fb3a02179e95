import { useCallback, useEffect, useState } from 'preact/hooks';
import { api } from '../api';
import { CopyField, ErrorNote } from '../components';

interface Integration {
  id: number;
  name: string;
  active: boolean;
  url: string;
  token?: string;
  type?: 'http' | 'prometheus';
}

type IntegrationType = 'http' | 'prometheus';

const TEST_PAYLOAD = { title: 'Test alert from the on-call console', severity: 'low', monitoring_tool: 'console' };

/** A test alert for a Prometheus integration: an Alertmanager webhook (version 4) of one firing alert. */
const PROMETHEUS_TEST_PAYLOAD = {
  version: '4',
  groupKey: '{}:{alertname="ConsoleTestAlert"}',
  status: 'firing',
  receiver: 'console',
  groupLabels: { alertname: 'ConsoleTestAlert' },
  commonLabels: { alertname: 'ConsoleTestAlert', severity: 'low' },
  commonAnnotations: {},
  externalURL: '',
  alerts: [
    {
      status: 'firing',
      labels: { alertname: 'ConsoleTestAlert', severity: 'low' },
      annotations: { title: 'Test alert from the on-call console' },
      startsAt: new Date(0).toISOString(),
      endsAt: '0001-01-01T00:00:00Z',
      generatorURL: '',
    },
  ],
};

/**
 * Alert integrations (maintainers): create an HTTP endpoint or a Prometheus (Alertmanager,
 * Grafana) integration, copy URL and key (shown once), test, reset key, (de)activate.
 */
export function IntegrationsPage({ projectId }: { projectId: number }) {
  const base = `/projects/${projectId}/alert_management/http_integrations`;
  const [items, setItems] = useState<Integration[] | null>(null);
  const [name, setName] = useState('');
  const [active, setActive] = useState(true);
  const [type, setType] = useState<IntegrationType>('http');
  const [secret, setSecret] = useState<{ name: string; url: string; token: string } | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);

  const load = useCallback(() => api.get<Integration[]>(base).then(setItems, (e: Error) => setError(e.message)), [base]);
  useEffect(() => void load(), [load]);

  const run = async (action: () => Promise<void>) => {
    setError(null);
    setNotice(null);
    try {
      await action();
      await load();
    } catch (e) {
      setError((e as Error).message);
    }
  };
  const create = (event: Event) => {
    event.preventDefault();
    void run(async () => {
      const created = await api.post<Integration>(base, { name, active, type });
      setSecret({ name: created.name, url: created.url, token: created.token ?? '' });
      setName('');
    });
  };

  return (
    <main id="main">
      <h1>Alert integrations</h1>
      <form class="panel filters" onSubmit={create}>
        <h2>New integration</h2>
        <div>
          <label for="integration-type">Type</label>
          <select id="integration-type" value={type} onChange={(e) => setType(e.currentTarget.value as IntegrationType)}>
            <option value="http">HTTP endpoint</option>
            <option value="prometheus">Prometheus (Alertmanager, Grafana)</option>
          </select>
        </div>
        <div>
          <label for="integration-name">Name</label>
          <input id="integration-name" required maxLength={255} value={name} onInput={(e) => setName(e.currentTarget.value)} />
        </div>
        <div class="check">
          <input id="integration-active" type="checkbox" checked={active} onChange={(e) => setActive(e.currentTarget.checked)} />
          <label for="integration-active">Active</label>
        </div>
        <button class="button primary" type="submit">
          Create integration
        </button>
      </form>
      <ErrorNote error={error} />
      {notice && (
        <p class="notice" role="status">
          {notice}
        </p>
      )}
      {secret && (
        <section class="panel secret" aria-label="New credentials">
          <h2>Credentials of {secret.name}</h2>
          <p>The key is shown only now: copy it into your monitoring tool.</p>
          <CopyField label="Webhook URL" value={secret.url} />
          <CopyField label="Authorization key" value={secret.token} />
          <button class="button" type="button" onClick={() => setSecret(null)}>
            Done
          </button>
        </section>
      )}
      {items?.length === 0 && <p>No integration yet.</p>}
      <ul class="integration-list">
        {items?.map((i) => (
          <li key={i.id} class="panel" data-integration={i.name}>
            <div class="title-row">
              <h2>{i.name}</h2>
              {i.type === 'prometheus' && <span class="status">Prometheus</span>}
              <span class={`status ${i.active ? 'status-resolved' : 'status-ignored'}`}>{i.active ? 'Active' : 'Inactive'}</span>
            </div>
            <CopyField label={`URL of ${i.name}`} value={i.url} />
            <div class="actions">
              <button
                class="button"
                type="button"
                onClick={() =>
                  run(async () => {
                    await api.post(`${base}/${i.id}/test`, i.type === 'prometheus' ? PROMETHEUS_TEST_PAYLOAD : TEST_PAYLOAD);
                    setNotice(`Test alert sent through ${i.name}.`);
                  })
                }
              >
                Send test alert
              </button>
              <button
                class="button"
                type="button"
                onClick={() =>
                  run(async () => {
                    const reset = await api.post<Integration>(`${base}/${i.id}/reset_token`);
                    setSecret({ name: reset.name, url: reset.url, token: reset.token ?? '' });
                  })
                }
              >
                Reset key
              </button>
              <button class="button" type="button" onClick={() => run(async () => void (await api.put(`${base}/${i.id}`, { active: !i.active })))}>
                {i.active ? 'Deactivate' : 'Activate'}
              </button>
            </div>
          </li>
        ))}
      </ul>
    </main>
  );
}
