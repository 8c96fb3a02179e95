import { parseBoolean } from './transforms';

describe(parseBoolean.name, () => {
  it.each([true, 1, '1', 'true', 'True', 'TRUE', 't', 'T', 'yes', 'Yes', 'y', 'on', 'ON', ' true '])('reads %p as true', (value) => {
    expect(parseBoolean(value)).toBe(true);
  });

  it.each([false, 0, '0', 'false', 'False', 'FALSE', 'f', 'F', 'no', 'NO', 'n', 'off', 'Off'])('reads %p as false', (value) => {
    expect(parseBoolean(value)).toBe(false);
  });

  it.each(['tRuE', 'fAlse', '2', 2, '', 'maybe', null, undefined, [], {}])('leaves %p unread (Grape refuses it)', (value) => {
    expect(parseBoolean(value)).toBeUndefined();
  });
});
