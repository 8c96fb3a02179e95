import { useEffect, useState } from 'preact/hooks';

/** Paths of the console, relative to its base (`/-/console/`). */
export const BASE = '/-/console';

export type Route =
  | { name: 'sign-in' }
  | { name: 'projects' }
  | { name: 'alerts'; projectId: number }
  | { name: 'alert'; projectId: number; iid: number }
  | { name: 'integrations'; projectId: number }
  | { name: 'hooks' }
  | { name: 'not-found' };

/** The route of a location path. */
export function routeOf(pathname: string): Route {
  const path = pathname.startsWith(BASE) ? pathname.slice(BASE.length) : pathname;
  const parts = path.split('/').filter(Boolean);
  if (parts.length === 0) return { name: 'projects' };
  if (parts[0] === 'sign_in' && parts.length === 1) return { name: 'sign-in' };
  if (parts[0] === 'admin' && parts[1] === 'hooks' && parts.length === 2) return { name: 'hooks' };
  if (parts[0] === 'projects' && /^\d+$/.test(parts[1] ?? '')) {
    const projectId = Number(parts[1]);
    if (parts.length === 2 || (parts[2] === 'alerts' && parts.length === 3)) return { name: 'alerts', projectId };
    if (parts[2] === 'alerts' && /^\d+$/.test(parts[3] ?? '') && parts.length === 4) return { name: 'alert', projectId, iid: Number(parts[3]) };
    if (parts[2] === 'integrations' && parts.length === 3) return { name: 'integrations', projectId };
  }
  return { name: 'not-found' };
}

export const href = (path: string): string => `${BASE}${path}`;

export function navigate(path: string, replace = false): void {
  const url = path.startsWith(BASE) ? path : href(path);
  if (replace) history.replaceState(null, '', url);
  else history.pushState(null, '', url);
  dispatchEvent(new PopStateEvent('popstate'));
}

/** The current location (path and query), updated on navigation. */
export function useLocation(): { pathname: string; search: string } {
  const [loc, setLoc] = useState({ pathname: location.pathname, search: location.search });
  useEffect(() => {
    const update = () => setLoc({ pathname: location.pathname, search: location.search });
    addEventListener('popstate', update);
    return () => removeEventListener('popstate', update);
  }, []);
  return loc;
}

/** Follows in-page links (`<a href="/-/console/...">`) without reloading. */
export function interceptLinks(event: MouseEvent): void {
  if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
  const anchor = (event.target as Element | null)?.closest?.('a');
  if (!anchor || anchor.target || anchor.hasAttribute('download')) return;
  const url = new URL(anchor.href, location.href);
  if (url.origin !== location.origin || !url.pathname.startsWith(BASE)) return;
  event.preventDefault();
  navigate(url.pathname + url.search);
}
