import { ALERT_NOTIFY_ROUTES, integrationSlug, MAX_PROJECT_PATH_SEGMENTS, notifyUrlOf, projectPathOfParams } from './notify-url';

describe(notifyUrlOf.name, () => {
  it('builds the notify URL from the external URL, the project path, the name slug and the identifier', () => {
    expect(notifyUrlOf('https://alerts.example.com', 'ops/pager/web', { name: 'Prometheus (prod) #1', endpointIdentifier: 'abcdef0123456789' })).toBe(
      'https://alerts.example.com/ops/pager/web/alerts/notify/prometheus-prod-1/abcdef0123456789.json',
    );
  });

  it('slugs names to lowercase ASCII, never empty', () => {
    expect(integrationSlug('Café Überwachung')).toBe('cafe-uberwachung');
    expect(integrationSlug('!!!')).toBe('integration');
  });
});

describe(projectPathOfParams.name, () => {
  it('joins the path segments of a matched route back into the project path', () => {
    expect(projectPathOfParams({ s0: 'group', s1: 'sub', s2: 'project', name: 'x', endpoint: 'y.json' })).toBe('group/sub/project');
  });

  it('routes every depth from a top-level project to 20 nested groups, both forms', () => {
    expect(ALERT_NOTIFY_ROUTES).toHaveLength(3 * (MAX_PROJECT_PATH_SEGMENTS - 1));
    expect(ALERT_NOTIFY_ROUTES).toContain(':s0/:s1/prometheus/alerts/notify.json');
    expect(ALERT_NOTIFY_ROUTES).toContain(':s0/:s1/alerts/notify.json');
    expect(ALERT_NOTIFY_ROUTES).toContain(`${Array.from({ length: 21 }, (_, i) => `:s${i}`).join('/')}/alerts/notify/:name/:endpoint`);
  });
});
