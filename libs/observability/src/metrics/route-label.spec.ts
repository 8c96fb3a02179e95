import { UNMATCHED_ROUTE, routeLabel } from './route-label';

describe(routeLabel.name, () => {
  it('is the route pattern, not the URL', () => {
    expect(routeLabel({ routeOptions: { url: '/api/v4/projects/:id' } })).toBe('/api/v4/projects/:id');
  });

  it('is "unmatched" for requests that matched no route', () => {
    expect(routeLabel({ is404: true, routeOptions: { url: undefined } })).toBe(UNMATCHED_ROUTE);
    expect(routeLabel({ routeOptions: {} })).toBe(UNMATCHED_ROUTE);
    expect(routeLabel({})).toBe(UNMATCHED_ROUTE);
  });

  it('is "unmatched" for the catch-all not-found route too', () => {
    expect(routeLabel({ is404: true, routeOptions: { url: '*' } })).toBe(UNMATCHED_ROUTE);
  });

  it('drops a trailing slash so that /a/ and /a count together', () => {
    expect(routeLabel({ routeOptions: { url: '/api/v4/projects/' } })).toBe('/api/v4/projects');
    expect(routeLabel({ routeOptions: { url: '/' } })).toBe('/');
  });
});
