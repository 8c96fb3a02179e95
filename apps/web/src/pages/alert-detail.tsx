import { useCallback, useEffect, useState } from 'preact/hooks';
import { ACCESS, Alert, AlertNote, AlertStatus, api, CurrentUser } from '../api';

/** The fields of the linked incident (an issue) the page shows. */
interface Incident {
  iid: number;
  title: string;
  state: string;
  web_url: string;
}
import { ErrorNote, SeverityBadge, StatusBadge, Time } from '../components';
import { exactTime } from '../format';
import { useLiveAlerts } from '../live';
import { href } from '../router';

/** The payload `details` as a readable tree. */
function DetailsTree({ value }: { value: unknown }) {
  if (value === null || typeof value !== 'object') return <code>{JSON.stringify(value)}</code>;
  const entries = Object.entries(value as Record<string, unknown>);
  if (entries.length === 0) return <code>{Array.isArray(value) ? '[]' : '{}'}</code>;
  return (
    <ul class="tree">
      {entries.map(([k, v]) => (
        <li key={k}>
          <span class="tree-key">{k}</span>: <DetailsTree value={v} />
        </li>
      ))}
    </ul>
  );
}

const ACTIONS: { status: AlertStatus; label: string; key?: string }[] = [
  { status: 'acknowledged', label: 'Acknowledge', key: 'a' },
  { status: 'resolved', label: 'Resolve', key: 'r' },
  { status: 'ignored', label: 'Ignore' },
];

export function AlertDetailPage({ projectId, iid, user, accessLevel }: { projectId: number; iid: number; user: CurrentUser; accessLevel: number }) {
  const [alert, setAlert] = useState<Alert | null>(null);
  const [notes, setNotes] = useState<AlertNote[]>([]);
  const [error, setError] = useState<string | null>(null);
  const [help, setHelp] = useState(false);
  const [incident, setIncident] = useState<Incident | null>(null);
  const [creating, setCreating] = useState(false);
  const canAct = accessLevel >= ACCESS.DEVELOPER;
  const path = `/projects/${projectId}/alert_management/alerts/${iid}`;

  const load = useCallback(async () => {
    try {
      const [a, n] = await Promise.all([api.get<Alert>(path), api.get<AlertNote[]>(`${path}/notes`)]);
      setAlert(a);
      setNotes(n);
      setIncident(a.issue_iid ? await api.get<Incident>(`/projects/${projectId}/issues/${a.issue_iid}`).catch(() => null) : null);
    } catch (e) {
      setError((e as Error).message);
    }
  }, [path, projectId]);
  useEffect(() => void load(), [load]);
  useLiveAlerts(
    projectId,
    (change) => change.iid === iid && void load(),
    () => void load(),
  );

  /** One click, optimistic: shown at once, rolled back when the service refuses. */
  const update = async (patch: Partial<Alert>, body: Record<string, unknown>) => {
    if (!alert) return;
    const before = alert;
    setAlert({ ...alert, ...patch });
    setError(null);
    try {
      setAlert(await api.put<Alert>(path, body));
      setNotes(await api.get<AlertNote[]>(`${path}/notes`));
    } catch (e) {
      setAlert(before);
      setError(`Not saved: ${(e as Error).message}`);
    }
  };
  const setStatus = (status: AlertStatus) => update({ status }, { status });
  /** One click: the incident (an issue of type incident) opened from this alert, then shown. */
  const createIncident = async () => {
    setCreating(true);
    setError(null);
    try {
      await api.post<Alert>(`${path}/incident`);
      await load();
    } catch (e) {
      setError(`Not created: ${(e as Error).message}`);
      await load();
    } finally {
      setCreating(false);
    }
  };
  const assignToMe = () =>
    alert &&
    update(
      { assignees: [...alert.assignees.filter((u) => u.id !== user.id), { id: user.id, username: user.username, name: user.name }] },
      { assignee_ids: [...new Set([...alert.assignees.map((u) => u.id), user.id])] },
    );

  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      const target = event.target as HTMLElement | null;
      if (event.ctrlKey || event.metaKey || event.altKey || target?.closest('input, textarea, select, [contenteditable]')) return;
      if (event.key === '?') setHelp((h) => !h);
      else if (event.key === 'Escape') setHelp(false);
      else if (canAct && alert && event.key === 'a' && alert.status !== 'acknowledged') void setStatus('acknowledged');
      else if (canAct && alert && event.key === 'r' && alert.status !== 'resolved') void setStatus('resolved');
    };
    addEventListener('keydown', onKey);
    return () => removeEventListener('keydown', onKey);
  });

  if (!alert) {
    return (
      <main id="main">
        <ErrorNote error={error} />
        {!error && <p aria-busy="true">Loading alert…</p>}
      </main>
    );
  }
  const assigned = alert.assignees.some((u) => u.id === user.id);
  return (
    <main id="main">
      <p>
        <a href={href(`/projects/${projectId}/alerts`)}>← All alerts</a>
      </p>
      <div class="title-row">
        <h1>
          <span class="muted">#{alert.iid}</span> {alert.title}
        </h1>
        <StatusBadge status={alert.status} />
      </div>
      {canAct && (
        <div class="actions" role="group" aria-label="Alert actions">
          {ACTIONS.map((a) => (
            <button
              key={a.status}
              type="button"
              class={`button ${a.status === 'acknowledged' ? 'primary' : ''}`}
              disabled={alert.status === a.status}
              onClick={() => setStatus(a.status)}
              aria-keyshortcuts={a.key}
            >
              {a.label}
            </button>
          ))}
          {alert.status !== 'triggered' && (
            <button type="button" class="button" onClick={() => setStatus('triggered')}>
              Re-open
            </button>
          )}
          <button type="button" class="button" disabled={assigned} onClick={assignToMe}>
            Assign to me
          </button>
          {!alert.issue_iid && (
            <button type="button" class="button" disabled={creating} onClick={createIncident}>
              Create incident
            </button>
          )}
        </div>
      )}
      <ErrorNote error={error} />
      {help && (
        <div class="panel" role="dialog" aria-label="Keyboard shortcuts">
          <h2>Keyboard shortcuts</h2>
          <dl class="fields">
            <dt>
              <kbd>a</kbd>
            </dt>
            <dd>Acknowledge</dd>
            <dt>
              <kbd>r</kbd>
            </dt>
            <dd>Resolve</dd>
            <dt>
              <kbd>?</kbd>
            </dt>
            <dd>Show or hide this help</dd>
          </dl>
        </div>
      )}
      <div class="detail-grid">
        <section class="panel" aria-label="Alert fields">
          <h2>Details</h2>
          <dl class="fields">
            <dt>Severity</dt>
            <dd>
              <SeverityBadge severity={alert.severity} />
            </dd>
            <dt>Started</dt>
            <dd>
              <Time iso={alert.started_at} /> <span class="muted">({exactTime(alert.started_at)})</span>
            </dd>
            <dt>Ended</dt>
            <dd>{alert.ended_at ? <Time iso={alert.ended_at} /> : '—'}</dd>
            <dt>Events</dt>
            <dd data-testid="event-count">{alert.event_count}</dd>
            <dt>First received</dt>
            <dd>{exactTime(alert.created_at)}</dd>
            <dt>Last received</dt>
            <dd>{exactTime(alert.updated_at)}</dd>
            <dt>Service</dt>
            <dd>{alert.service ?? '—'}</dd>
            <dt>Monitoring tool</dt>
            <dd>{alert.monitoring_tool ?? '—'}</dd>
            <dt>Hosts</dt>
            <dd>{alert.hosts?.length ? alert.hosts.join(', ') : '—'}</dd>
            <dt>Assignees</dt>
            <dd data-testid="assignees">{alert.assignees.length ? alert.assignees.map((u) => `@${u.username}`).join(', ') : 'Unassigned'}</dd>
            <dt>Incident</dt>
            <dd data-testid="incident">
              {alert.issue_iid ? (
                <a href={incident?.web_url ?? '#'} target="_blank" rel="noopener">
                  Incident #{alert.issue_iid}
                  {incident ? `: ${incident.title} (${incident.state})` : ''}
                </a>
              ) : (
                'None'
              )}
            </dd>
            <dt>Fingerprint</dt>
            <dd>
              <code>{alert.fingerprint ?? '—'}</code>
            </dd>
            <dt>Description</dt>
            <dd>{alert.description ?? '—'}</dd>
          </dl>
          <h3>Payload details</h3>
          <DetailsTree value={alert.details} />
        </section>
        <section class="panel" aria-label="Timeline">
          <h2>Timeline</h2>
          <ol class="timeline">
            {notes.map((n) => (
              <li key={n.id}>
                <strong>{n.author ? `@${n.author.username}` : 'Alert integration'}</strong> {n.body.replace(/\*\*/g, '')} <Time iso={n.created_at} />
              </li>
            ))}
          </ol>
        </section>
      </div>
      <p class="muted">
        Press <kbd>?</kbd> for keyboard shortcuts.
      </p>
    </main>
  );
}
