import { useCallback, useEffect, useState } from 'preact/hooks';
import { api } from '../api';
import { ErrorNote, Time } from '../components';

interface Hook {
  id: number;
  url: string;
  alert_status: string;
  disabled_until: string | null;
  recent_failures?: number;
}
interface Delivery {
  id: number;
  trigger: string;
  url: string;
  response_status: number | null;
  response_body: string | null;
  status: string;
  error: string | null;
  execution_duration: number;
  attempt: number;
  created_at: string;
}

function health(hook: Hook): string {
  if (hook.alert_status === 'disabled') return 'Permanently disabled';
  if (hook.alert_status === 'temporarily_disabled' && hook.disabled_until)
    return `Temporarily disabled until ${new Date(hook.disabled_until).toLocaleString()}`;
  return 'Enabled';
}

/** System hooks (administrators): health, recent deliveries, resend. */
export function SystemHooksPage() {
  const [hooks, setHooks] = useState<Hook[] | null>(null);
  const [open, setOpen] = useState<number | null>(null);
  const [deliveries, setDeliveries] = useState<Delivery[]>([]);
  const [error, setError] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  useEffect(() => void api.get<Hook[]>('/hooks').then(setHooks, (e: Error) => setError(e.message)), []);
  const show = useCallback(async (id: number) => {
    setOpen(id);
    try {
      setDeliveries(await api.get<Delivery[]>(`/hooks/${id}/events?per_page=20`));
    } catch (e) {
      setError((e as Error).message);
    }
  }, []);
  const resend = async (hookId: number, delivery: Delivery) => {
    setError(null);
    try {
      await api.post(`/hooks/${hookId}/events/${delivery.id}/resend`);
      setNotice(`Delivery ${delivery.id} queued again.`);
      await show(hookId);
    } catch (e) {
      setError((e as Error).message);
    }
  };
  return (
    <main id="main">
      <h1>System hooks</h1>
      <ErrorNote error={error} />
      {notice && (
        <p class="notice" role="status">
          {notice}
        </p>
      )}
      {hooks?.length === 0 && <p>No system hook.</p>}
      <ul class="integration-list">
        {hooks?.map((h) => (
          <li key={h.id} class="panel">
            <div class="title-row">
              <h2 class="break">{h.url}</h2>
              <span class={`status ${h.alert_status === 'executable' ? 'status-resolved' : 'status-triggered'}`}>{health(h)}</span>
            </div>
            <button class="button" type="button" aria-expanded={open === h.id} onClick={() => (open === h.id ? setOpen(null) : void show(h.id))}>
              Recent deliveries
            </button>
            {open === h.id && (
              <table class="alerts">
                <caption class="visually-hidden">Recent deliveries of {h.url}</caption>
                <thead>
                  <tr>
                    <th scope="col">When</th>
                    <th scope="col">Trigger</th>
                    <th scope="col">Status</th>
                    <th scope="col">Duration</th>
                    <th scope="col">Response</th>
                    <th scope="col">
                      <span class="visually-hidden">Actions</span>
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {deliveries.length === 0 && (
                    <tr>
                      <td colSpan={6}>No delivery yet.</td>
                    </tr>
                  )}
                  {deliveries.map((d) => (
                    <tr key={d.id}>
                      <td data-label="When">
                        <Time iso={d.created_at} />
                      </td>
                      <td data-label="Trigger">{d.trigger}</td>
                      <td data-label="Status">
                        {d.response_status ?? '—'} {d.status}
                      </td>
                      <td data-label="Duration">{Math.round(d.execution_duration * 1000)} ms</td>
                      <td data-label="Response" class="break">
                        {d.error ?? (d.response_body ?? '').slice(0, 200)}
                      </td>
                      <td>
                        <button class="button" type="button" onClick={() => resend(h.id, d)}>
                          Resend
                        </button>
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            )}
          </li>
        ))}
      </ul>
    </main>
  );
}
