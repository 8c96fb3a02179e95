import { DomainError } from '../errors/domain-error';
import { parseGroupRef, parseProjectOrGroupRef, parseProjectRef, ProjectRefPipe } from './project-or-group-ref';

describe(parseProjectOrGroupRef.name, () => {
  it.each([
    ['42', { kind: 'id', id: 42 }],
    ['007', { kind: 'id', id: 7 }],
    ['group', { kind: 'path', path: 'group' }],
    ['group/sub/my-project.v2', { kind: 'path', path: 'group/sub/my-project.v2' }],
    ['_under.score/x', { kind: 'path', path: '_under.score/x' }],
  ])('reads %s', (input, expected) => {
    expect(parseProjectOrGroupRef(input)).toEqual(expected);
  });

  it.each([
    '',
    '   ',
    '0',
    '2147483648',
    '99999999999999999999',
    'group//proj',
    '/group',
    'group/',
    'group/../x',
    'a/./b',
    'group%2Fproj',
    'gr oup',
    '-dash',
    'a'.repeat(5000),
  ])('refuses %j', (input) => {
    expect(parseProjectOrGroupRef(input)).toBeNull();
  });
});

describe(parseProjectRef.name, () => {
  it('needs a namespace in a project path', () => {
    expect(parseProjectRef('project')).toBeNull();
    expect(parseProjectRef('ns/project')).toEqual({ kind: 'path', path: 'ns/project' });
    expect(parseProjectRef('5')).toEqual({ kind: 'id', id: 5 });
  });

  it('accepts top-level group paths for groups', () => {
    expect(parseGroupRef('group')).toEqual({ kind: 'path', path: 'group' });
  });
});

describe(ProjectRefPipe.name, () => {
  const sut = new ProjectRefPipe();

  it('throws the project 404 for an unusable reference', () => {
    expect(() => sut.transform('nope')).toThrow(DomainError);
    expect(() => sut.transform('nope')).toThrow('404 Project Not Found');
  });

  it('returns the reference', () => {
    expect(sut.transform('a/b')).toEqual({ kind: 'path', path: 'a/b' });
  });
});
