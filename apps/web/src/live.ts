import { useEffect, useRef, useState } from 'preact/hooks';

export type LiveState = 'connecting' | 'live' | 'reconnecting';

/** A change of an alert as the stream sends it. */
export interface LiveChange {
  type: string;
  event_id: string;
  iid: number;
  occurred_at: string;
  alert: { title?: string; status?: string; severity?: string; event_count?: number };
}

/**
 * Follows the project's alert stream (SSE). `onChange` gets each change; `onReset` runs when
 * changes may have been missed (the browser reconnects with Last-Event-ID by itself, and the
 * server answers `reset` when it cannot replay).
 */
export function useLiveAlerts(projectId: number, onChange: (change: LiveChange) => void, onReset: () => void): LiveState {
  const [state, setState] = useState<LiveState>('connecting');
  const handlers = useRef({ onChange, onReset });
  handlers.current = { onChange, onReset };
  useEffect(() => {
    const source = new EventSource(`/api/v4/projects/${projectId}/alert_management/alerts/stream`, { withCredentials: true });
    let opened = false;
    source.addEventListener('ready', () => {
      // A reconnection may have missed changes the backlog no longer holds: reload to be sure.
      if (opened) handlers.current.onReset();
      opened = true;
      setState('live');
    });
    source.addEventListener('alert', (event) => {
      try {
        handlers.current.onChange(JSON.parse((event as MessageEvent<string>).data) as LiveChange);
      } catch {
        // ignore a malformed frame
      }
    });
    source.addEventListener('reset', () => handlers.current.onReset());
    source.addEventListener('error', () => setState(source.readyState === EventSource.CLOSED ? 'reconnecting' : 'reconnecting'));
    return () => source.close();
  }, [projectId]);
  return state;
}
