import { mappingProblems, readMappedValue, toAttributeMappings, valueAtPath } from './attribute-mapping';

describe(valueAtPath.name, () => {
  const payload = { a: { b: [{ c: 'deep' }, 'second'] }, 'dotted.key': 1 };

  it('follows keys and array indexes', () => {
    expect(valueAtPath(payload, ['a', 'b', 0, 'c'])).toBe('deep');
    expect(valueAtPath(payload, ['a', 'b', '1'])).toBe('second');
    expect(valueAtPath(payload, ['dotted.key'])).toBe(1);
  });

  it('is undefined for missing steps, never reading inherited properties', () => {
    expect(valueAtPath(payload, ['a', 'x', 'y'])).toBeUndefined();
    expect(valueAtPath(payload, ['a', 'b', 'length'])).toBeUndefined();
    expect(valueAtPath(payload, ['constructor'])).toBeUndefined();
  });
});

describe(readMappedValue.name, () => {
  it('reads with the declared type', () => {
    const payload = { s: 5, list: ['a'], one: 'h', time: '2026-01-01T00:00:00Z', obj: { x: 1 } };
    expect(readMappedValue(payload, { fieldName: 'title', path: ['s'], type: 'string' })).toBe('5');
    expect(readMappedValue(payload, { fieldName: 'title', path: ['obj'], type: 'string' })).toBeUndefined();
    expect(readMappedValue(payload, { fieldName: 'hosts', path: ['list'], type: 'array' })).toEqual(['a']);
    expect(readMappedValue(payload, { fieldName: 'hosts', path: ['one'], type: 'array' })).toEqual(['h']);
    expect(readMappedValue(payload, { fieldName: 'start_time', path: ['time'], type: 'datetime' })).toBe('2026-01-01T00:00:00Z');
    expect(readMappedValue(payload, { fieldName: 'start_time', path: ['obj'], type: 'datetime' })).toBeUndefined();
  });
});

describe(mappingProblems.name, () => {
  it('accepts a well-formed mapping and converts it', () => {
    const input = [{ field_name: 'title', path: ['alert', 0, 'name'], type: 'string', label: 'Name' }];
    expect(mappingProblems(input)).toEqual([]);
    expect(toAttributeMappings(input)).toEqual([{ fieldName: 'title', path: ['alert', 0, 'name'], type: 'string', label: 'Name' }]);
  });

  it('lists every problem', () => {
    expect(mappingProblems('nope')).toEqual(['must be an array of {field_name, path, type}']);
    expect(
      mappingProblems([
        null,
        { field_name: 'title', path: ['a'], type: 'string' },
        { field_name: 'title', path: ['b'], type: 'string' },
        { field_name: 'colour', path: [''], type: 'number', label: 5 },
      ]),
    ).toEqual([
      'entry 0 must be an object',
      'entry 2: field_name title is mapped twice',
      expect.stringMatching(/^entry 3: field_name must be one of title, description/),
      'entry 3: path must be a non-empty array of keys',
      'entry 3: type must be one of string, array, datetime',
      'entry 3: label must be a string of at most 255 characters',
    ]);
  });
});
