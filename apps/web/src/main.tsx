import { render } from 'preact';
import { prefetch, SESSION_URL } from './api';
import { App } from './app';
import { countsPath, filtersOf, listPath } from './pages/alert-list';
import { routeOf } from './router';
import './styles.css';

// The list page's data is asked for at once, with the session, not after it: one round trip less.
const route = routeOf(location.pathname);
if (route.name === 'alerts') {
  const filters = filtersOf(location.search);
  prefetch([SESSION_URL, `/api/v4${listPath(route.projectId, filters)}`, `/api/v4${countsPath(route.projectId, filters)}`]);
} else prefetch([SESSION_URL]);

render(<App />, document.getElementById('app')!);
