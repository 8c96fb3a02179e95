import { effectiveProjectOrder } from './projects.repository';

describe(effectiveProjectOrder.name, () => {
  const admin = { id: 1, isAdmin: true, external: false };
  const user = { id: 2, isAdmin: false, external: false };

  it('defaults to created_at', () => {
    expect(effectiveProjectOrder(undefined, undefined, user)).toBe('created_at');
    expect(effectiveProjectOrder('name', undefined, null)).toBe('name');
  });

  it('keeps size orders for administrators and falls back to the default for others', () => {
    for (const order of ['repository_size', 'storage_size', 'packages_size', 'wiki_size'] as const) {
      expect(effectiveProjectOrder(order, undefined, admin)).toBe(order);
      expect(effectiveProjectOrder(order, undefined, user)).toBe('created_at');
      expect(effectiveProjectOrder(order, undefined, null)).toBe('created_at');
    }
  });

  it('uses similarity only with a search term and a signed-in caller', () => {
    expect(effectiveProjectOrder('similarity', 'router', user)).toBe('similarity');
    expect(effectiveProjectOrder('similarity', undefined, user)).toBe('created_at');
    expect(effectiveProjectOrder('similarity', '', admin)).toBe('created_at');
    expect(effectiveProjectOrder('similarity', 'router', null)).toBe('created_at');
  });
});
