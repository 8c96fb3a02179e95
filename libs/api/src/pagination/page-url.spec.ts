import { buildPageUrl, splitRequestTarget } from './page-url';

describe(buildPageUrl.name, () => {
  const externalUrl = 'https://gitlab.example.com/prefix/';

  it('keeps the path as received and every other parameter in order, replacing the given ones', () => {
    const target = { path: '/api/v4/projects/a%2Fb/issues', query: 'page=4&labels%5B%5D=x&per_page=3&search=a+b&tz=%2B01:00' };
    expect(
      buildPageUrl(externalUrl, target, [
        ['page', '5'],
        ['per_page', '3'],
      ]),
    ).toBe('https://gitlab.example.com/prefix/api/v4/projects/a%2Fb/issues?labels%5B%5D=x&search=a+b&tz=%2B01:00&page=5&per_page=3');
  });

  it('recognizes encoded keys and removes the listed ones', () => {
    const target = { path: '/x', query: 'id%5Fafter=3&cursor=abc&keep=1&&flag' };
    expect(buildPageUrl('https://h', target, [['id_after', '9']], ['cursor'])).toBe('https://h/x?keep=1&flag&id_after=9');
  });

  it('percent-encodes what cannot appear in a Link header', () => {
    expect(buildPageUrl('https://h', { path: '/x', query: 'q=<a>"b' }, [])).toBe('https://h/x?q=%3Ca%3E%22b');
  });

  it('builds a URL without a query when there is nothing to carry', () => {
    expect(buildPageUrl('https://h', { path: '/x', query: '' }, [])).toBe('https://h/x');
  });
});

describe(splitRequestTarget.name, () => {
  it('prefers the raw URL and splits at the first question mark', () => {
    expect(splitRequestTarget({ url: '/rewritten', raw: { url: '/a%2Fb?x=1?y' } })).toEqual({ path: '/a%2Fb', query: 'x=1?y' });
    expect(splitRequestTarget({ url: '/only' })).toEqual({ path: '/only', query: '' });
  });
});
