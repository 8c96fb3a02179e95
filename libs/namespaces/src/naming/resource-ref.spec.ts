import { parseResourceRef, splitProjectPath } from './resource-ref';

describe(parseResourceRef.name, () => {
  it('reads numeric ids', () => {
    expect(parseResourceRef('42')).toEqual({ id: 42 });
    expect(parseResourceRef(42)).toEqual({ id: 42 });
  });

  it('reads full paths as the router decoded them, and does not decode again', () => {
    expect(parseResourceRef('group/sub/project')).toEqual({ fullPath: 'group/sub/project' });
    expect(parseResourceRef('group%2Fproject')).toBeNull();
  });

  it('rejects what cannot name a resource, ids beyond PostgreSQL integers included', () => {
    expect(parseResourceRef('')).toBeNull();
    expect(parseResourceRef('0')).toBeNull();
    expect(parseResourceRef('2147483648')).toBeNull();
    expect(parseResourceRef('a/../b')).toBeNull();
  });
});

describe(splitProjectPath.name, () => {
  it('splits at the last slash', () => {
    expect(splitProjectPath('a/b/c')).toEqual({ namespacePath: 'a/b', path: 'c' });
    expect(splitProjectPath('nope')).toBeNull();
    expect(splitProjectPath('a/')).toBeNull();
  });
});
