import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import { Alert, api, Severity, StatusCounts } from '../api';
import { HourBucket, HourlyChart } from '../chart';
import { ErrorNote, SeverityBadge, StatusBadge, Time } from '../components';
import { SEVERITIES, SEVERITY_META } from '../format';
import { LiveChange, useLiveAlerts } from '../live';
import { href, navigate } from '../router';

const TABS = [
  { key: 'open', label: 'Open', statuses: ['triggered', 'acknowledged'] },
  { key: 'triggered', label: 'Triggered', statuses: ['triggered'] },
  { key: 'acknowledged', label: 'Acknowledged', statuses: ['acknowledged'] },
  { key: 'resolved', label: 'Resolved', statuses: ['resolved'] },
  { key: 'all', label: 'All', statuses: [] },
] as const;
type TabKey = (typeof TABS)[number]['key'];

const SORTS = [
  { key: 'started_at:desc', label: 'Start time, newest first' },
  { key: 'started_at:asc', label: 'Start time, oldest first' },
  { key: 'severity:desc', label: 'Severity, most severe first' },
  { key: 'event_count:desc', label: 'Events, most first' },
] as const;

const KEYSET_ORDERS = new Set(['started_at', 'event_count']);
const PER_PAGE = 20;

interface Filters {
  tab: TabKey;
  search: string;
  severity: Severity | '';
  sort: string;
}

export function filtersOf(search: string): Filters {
  const q = new URLSearchParams(search);
  const tab = (TABS.find((t) => t.key === q.get('tab'))?.key ?? 'open') as TabKey;
  const severity = SEVERITIES.includes(q.get('severity') as Severity) ? (q.get('severity') as Severity) : '';
  const sort = SORTS.find((s) => s.key === q.get('sort'))?.key ?? 'started_at:desc';
  return { tab, search: q.get('search') ?? '', severity, sort };
}

export function queryOf(f: Filters, withStatus: boolean): URLSearchParams {
  const q = new URLSearchParams();
  if (withStatus) for (const s of TABS.find((t) => t.key === f.tab)!.statuses) q.append('status[]', s);
  if (f.search.trim()) q.set('search', f.search.trim());
  if (f.severity) q.append('severity[]', f.severity);
  return q;
}

export const countsPath = (projectId: number, f: Filters): string => `/projects/${projectId}/alert_management/alerts/status_counts?${queryOf(f, false)}`;

export function listPath(projectId: number, f: Filters): string {
  const q = queryOf(f, true);
  const [orderBy, sort] = f.sort.split(':');
  q.set('order_by', orderBy);
  q.set('sort', sort);
  q.set('per_page', String(PER_PAGE));
  if (KEYSET_ORDERS.has(orderBy)) q.set('pagination', 'keyset');
  return `/projects/${projectId}/alert_management/alerts?${q}`;
}

export function AlertListPage({ projectId, search }: { projectId: number; search: string }) {
  const filters = filtersOf(search);
  const [alerts, setAlerts] = useState<Alert[] | null>(null);
  const [next, setNext] = useState<string | null>(null);
  const [counts, setCounts] = useState<StatusCounts | null>(null);
  const [hourly, setHourly] = useState<HourBucket[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [fresh, setFresh] = useState<Set<number>>(new Set());
  const [searchText, setSearchText] = useState(filters.search);
  const key = `${projectId}|${filters.tab}|${filters.search}|${filters.severity}|${filters.sort}`;
  const latest = useRef(key);
  latest.current = key;

  const load = useCallback(async () => {
    const requested = key;
    try {
      // The chart does not hold the list back.
      void api.get<HourBucket[]>(`/projects/${projectId}/alert_management/alerts/started_per_hour?${queryOf(filters, false)}`).then(
        (h) => latest.current === requested && setHourly(h),
        () => undefined,
      );
      const [page, c] = await Promise.all([api.page<Alert>(listPath(projectId, filters)), api.get<StatusCounts>(countsPath(projectId, filters))]);
      if (latest.current !== requested) return;
      setAlerts(page.items);
      setNext(page.next);
      setCounts(c);
      setError(null);
    } catch (e) {
      setError((e as Error).message);
    }
  }, [key]);

  useEffect(() => {
    setAlerts(null);
    void load();
  }, [load]);

  // Live: a change reloads the first page and the counts (coalesced), and marks the row.
  const pending = useRef<ReturnType<typeof setTimeout> | null>(null);
  const schedule = useCallback(() => {
    if (pending.current) return;
    pending.current = setTimeout(() => {
      pending.current = null;
      void load();
    }, 100);
  }, [load]);
  const live = useLiveAlerts(
    projectId,
    (change: LiveChange) => {
      setFresh((s) => new Set(s).add(change.iid));
      schedule();
    },
    schedule,
  );
  useEffect(() => () => void (pending.current && clearTimeout(pending.current)), []);
  // For `npm run bench:console`: when the first rows and counts are on screen.
  useEffect(() => {
    if (alerts && counts && performance.getEntriesByName('console:list-rendered').length === 0) performance.mark('console:list-rendered');
  }, [alerts, counts]);

  const setFilter = (patch: Partial<Filters>) => {
    const f = { ...filters, ...patch };
    const q = new URLSearchParams();
    if (f.tab !== 'open') q.set('tab', f.tab);
    if (f.search) q.set('search', f.search);
    if (f.severity) q.set('severity', f.severity);
    if (f.sort !== 'started_at:desc') q.set('sort', f.sort);
    navigate(`/projects/${projectId}/alerts${q.size ? `?${q}` : ''}`, true);
  };

  const loadMore = async () => {
    if (!next) return;
    try {
      const page = await api.page<Alert>(next);
      setAlerts((a) => [...(a ?? []), ...page.items.filter((x) => !a?.some((y) => y.iid === x.iid))]);
      setNext(page.next);
    } catch (e) {
      setError((e as Error).message);
    }
  };

  return (
    <main id="main">
      <div class="title-row">
        <h1>Alerts</h1>
        <span class={`live live-${live}`} role="status">
          <span aria-hidden="true">●</span> {live === 'live' ? 'Live' : live === 'connecting' ? 'Connecting…' : 'Reconnecting…'}
        </span>
      </div>
      {hourly && <HourlyChart buckets={hourly} />}
      <nav class="tabs" aria-label="Alert status">
        {TABS.map((t) => (
          <a
            key={t.key}
            href={href(`/projects/${projectId}/alerts${t.key === 'open' ? '' : `?tab=${t.key}`}`)}
            aria-current={filters.tab === t.key ? 'page' : undefined}
            onClick={(e) => {
              e.preventDefault();
              setFilter({ tab: t.key });
            }}
          >
            {t.label}{' '}
            <span class="count" data-testid={`count-${t.key}`}>
              {counts ? counts[t.key] : '…'}
            </span>
          </a>
        ))}
      </nav>
      <form
        class="filters"
        role="search"
        onSubmit={(e) => {
          e.preventDefault();
          setFilter({ search: searchText });
        }}
      >
        <div>
          <label for="alert-search">Search</label>
          <input
            id="alert-search"
            type="search"
            value={searchText}
            onInput={(e) => setSearchText(e.currentTarget.value)}
            placeholder="Title, description, service…"
          />
        </div>
        <div>
          <label for="alert-severity">Severity</label>
          <select id="alert-severity" value={filters.severity} onChange={(e) => setFilter({ severity: e.currentTarget.value as Severity | '' })}>
            <option value="">Any severity</option>
            {SEVERITIES.map((s) => (
              <option key={s} value={s}>
                {SEVERITY_META[s].label}
              </option>
            ))}
          </select>
        </div>
        <div>
          <label for="alert-sort">Sort by</label>
          <select id="alert-sort" value={filters.sort} onChange={(e) => setFilter({ sort: e.currentTarget.value })}>
            {SORTS.map((s) => (
              <option key={s.key} value={s.key}>
                {s.label}
              </option>
            ))}
          </select>
        </div>
        <button class="button" type="submit">
          Search
        </button>
      </form>
      <ErrorNote error={error} />
      {alerts === null ? (
        <p aria-busy="true">Loading alerts…</p>
      ) : alerts.length === 0 ? (
        <p class="empty">No alerts here.</p>
      ) : (
        <table class="alerts">
          <caption class="visually-hidden">Alerts</caption>
          <thead>
            <tr>
              <th scope="col">Severity</th>
              <th scope="col">Alert</th>
              <th scope="col">Started</th>
              <th scope="col">Events</th>
              <th scope="col">Assignees</th>
              <th scope="col">Incident</th>
              <th scope="col">Status</th>
            </tr>
          </thead>
          <tbody>
            {alerts.map((a) => (
              <tr key={a.iid} class={fresh.has(a.iid) ? 'fresh' : undefined} data-iid={a.iid}>
                <td data-label="Severity">
                  <SeverityBadge severity={a.severity} />
                </td>
                <td data-label="Alert" class="alert-title">
                  <a href={href(`/projects/${projectId}/alerts/${a.iid}`)}>{a.title}</a>
                  {a.service && <span class="muted"> · {a.service}</span>}
                </td>
                <td data-label="Started">
                  <Time iso={a.started_at} />
                </td>
                <td data-label="Events">{a.event_count}</td>
                <td data-label="Assignees">
                  {a.assignees.length ? a.assignees.map((u) => `@${u.username}`).join(', ') : <span class="muted">Unassigned</span>}
                </td>
                <td data-label="Incident">{a.issue_iid ? `#${a.issue_iid}` : <span class="muted">None</span>}</td>
                <td data-label="Status">
                  <StatusBadge status={a.status} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {next && (
        <button class="button" type="button" onClick={loadMore}>
          Load more
        </button>
      )}
    </main>
  );
}
