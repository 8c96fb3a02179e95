import { DomainError, ErrorCode } from '@app/api';
import { MemberEntity } from '../entities/member.entity';
import { checkAgainstInherited, checkMemberAccessLevel, parseExpiresAt } from './member-rules';

const validation = (fn: () => unknown) => {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(DomainError);
    expect((error as DomainError).code).toBe(ErrorCode.VALIDATION_FAILED);
    return (error as DomainError).details.validation;
  }
  throw new Error('expected a validation failure');
};

describe('member rules', () => {
  it('accepts YYYY-MM-DD dates from today on, clears with empty values', () => {
    expect(parseExpiresAt('2030-05-01', '2030-04-30')).toBe('2030-05-01');
    expect(parseExpiresAt('2030-04-30T00:00:00Z', '2030-04-30')).toBe('2030-04-30');
    expect(parseExpiresAt('', '2030-04-30')).toBeNull();
    expect(parseExpiresAt(undefined)).toBeUndefined();
  });

  it('refuses past and malformed dates', () => {
    expect(validation(() => parseExpiresAt('2030-04-29', '2030-04-30'))).toEqual({ expires_at: ['cannot be a date in the past'] });
    expect(validation(() => parseExpiresAt('tomorrow', '2030-04-30'))).toEqual({ expires_at: ['is invalid'] });
  });

  it('allows Minimal Access in groups only', () => {
    const project = { kind: 'project' } as never;
    const group = { kind: 'group' } as never;
    expect(validation(() => checkMemberAccessLevel(project, 5))).toEqual({ access_level: ['is not included in the list'] });
    expect(() => checkMemberAccessLevel(group, 5)).not.toThrow();
    expect(validation(() => checkMemberAccessLevel(group, 60))).toEqual({ access_level: ['is not included in the list'] });
  });

  it('refuses a level below an inherited membership, naming it', () => {
    const inherited = Object.assign(new MemberEntity(), { accessLevel: 30, groupName: 'Platform' });
    expect(validation(() => checkAgainstInherited(20, inherited))).toEqual({
      access_level: ['should be greater than or equal to Developer inherited membership from group Platform'],
    });
    expect(() => checkAgainstInherited(30, inherited)).not.toThrow();
    expect(() => checkAgainstInherited(10, null)).not.toThrow();
  });
});
