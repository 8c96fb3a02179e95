import { Injectable } from '@nestjs/common';
import { UserEntity } from '../entities/user.entity';
import { MAX_LOGIN_ATTEMPTS, UNLOCK_IN_SECONDS } from '../lockout/account-lockout';
import { verifyPassword } from '../tokens/token-digest';
import { UsersRepository } from '../users/users.repository';

export interface AuthenticateWithPasswordCommand {
  /** Username or e-mail (case-insensitive). */
  login: string;
  password: string;
}

/** `locked`: refused because the account is locked (whatever the password); `invalid`: anything else. */
export type PasswordAuthentication = { outcome: 'authenticated'; user: UserEntity } | { outcome: 'locked' } | { outcome: 'invalid' };

/**
 * The one check of a user's own password, shared by every door that accepts one (web sign-in,
 * OAuth password grant, git HTTP Basic), with GitLab's lockout: each wrong password of an active
 * human user counts; the 10th locks the account for 10 minutes, during which even the right
 * password is refused; a successful check clears the count. Unknown and inactive (blocked,
 * deactivated) users count nothing, as in GitLab.
 */
@Injectable()
export class AuthenticateWithPasswordUseCase {
  constructor(private readonly users: UsersRepository) {}

  async execute(command: AuthenticateWithPasswordCommand): Promise<PasswordAuthentication> {
    const user = await this.users.findByLoginWithPassword(command.login);
    if (!user || user.state !== 'active') return { outcome: 'invalid' };
    const valid = await verifyPassword(command.password, user.passwordDigest);
    if (valid && (await this.users.recordPasswordSuccess(user.id, UNLOCK_IN_SECONDS))) {
      return { outcome: 'authenticated', user: { ...user, failedAttempts: 0, lockedAt: null } };
    }
    const after = await this.users.recordPasswordFailure(user.id, MAX_LOGIN_ATTEMPTS, UNLOCK_IN_SECONDS);
    return after?.locked ? { outcome: 'locked' } : { outcome: 'invalid' };
  }
}
