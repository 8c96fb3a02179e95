import { mayChangeSnippet, mayCreateSnippet, snippetReadable, snippetsFeatureOpen } from './snippet-access';

const user = (id: number, extra: Partial<{ isAdmin: boolean; external: boolean }> = {}) => ({ id, isAdmin: false, external: false, ...extra });
const project = (level?: string) => ({ settings: level ? { snippets_access_level: level } : {}, issuesEnabled: true, mergeRequestsEnabled: true });

describe('snippet access', () => {
  it('reads snippets by their visibility', () => {
    const of = (visibility: 'public' | 'internal' | 'private') => ({ visibility, authorId: 1 });
    expect(snippetReadable(of('public'), null, 0)).toBe(true);
    expect(snippetReadable(of('internal'), null, 0)).toBe(false);
    expect(snippetReadable(of('internal'), user(2), 0)).toBe(true);
    expect(snippetReadable(of('internal'), user(2, { external: true }), 0)).toBe(false);
    expect(snippetReadable(of('private'), user(2), 0)).toBe(false);
    expect(snippetReadable(of('private'), user(2), 10)).toBe(true);
    expect(snippetReadable(of('private'), user(1), 0)).toBe(true);
    expect(snippetReadable(of('private'), user(3, { isAdmin: true }), 0)).toBe(true);
  });

  it('follows the project feature level', () => {
    expect(snippetsFeatureOpen(project(), null, 0)).toBe(true);
    expect(snippetsFeatureOpen(project('disabled'), user(1, { isAdmin: true }), 60)).toBe(false);
    expect(snippetsFeatureOpen(project('private'), user(1), 0)).toBe(false);
    expect(snippetsFeatureOpen(project('private'), user(1), 10)).toBe(true);
  });

  it('lets Reporters create and authors or Maintainers change', () => {
    expect(mayCreateSnippet(user(1), 10)).toBe(false);
    expect(mayCreateSnippet(user(1), 20)).toBe(true);
    expect(mayChangeSnippet({ authorId: 1 }, user(1), 20)).toBe(true);
    expect(mayChangeSnippet({ authorId: 1 }, user(2), 30)).toBe(false);
    expect(mayChangeSnippet({ authorId: 1 }, user(2), 40)).toBe(true);
  });
});
