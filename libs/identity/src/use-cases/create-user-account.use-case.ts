import { Injectable } from '@nestjs/common';
import { DomainError } from '@app/api';
import { OutboxService } from '@app/messaging';
import { emailDomainRestriction, SettingsReader } from '@app/settings';
import { randomBytes } from 'node:crypto';
import { DataSource, EntityManager } from 'typeorm';
import { UserEntity, UserType } from '../entities/user.entity';
import { UsersRepository } from '../users/users.repository';
import { hashPassword } from '../tokens/token-digest';
import { uniqueViolation } from '@app/database';
import { IDENTITY_EVENTS } from '../events/identity.events';

export interface CreateUserCommand {
  email: string;
  name: string;
  username: string;
  password?: string;
  admin?: boolean;
  external?: boolean;
  privateProfile?: boolean;
  canCreateGroup?: boolean;
  /** Default: the instance's `default_projects_limit`. */
  projectsLimit?: number;
  userType?: UserType;
  /** Apply `domain_allowlist` / `domain_denylist` to the e-mail (accounts created through the API). */
  checkEmailDomain?: boolean;
  profile?: Partial<Pick<UserEntity, 'bio' | 'location' | 'publicEmail' | 'skype' | 'linkedin' | 'twitter' | 'websiteUrl' | 'organization' | 'jobTitle'>>;
  actorId: number | null;
}

const RESERVED_USERNAMES = new Set(['api', 'oauth', 'users', 'groups', 'projects', 'admin', 'help', 'explore', 'dashboard', 'uploads', '-', 'root-admin']);

/** Runs inside the user's transaction once the row exists (the namespaces lib adds the personal namespace). */
export type UserCreatedStep = (tx: EntityManager, user: UserEntity) => Promise<void>;

/**
 * Creates a user account and records `user_create` in the outbox; `withUser` runs in the same
 * transaction (its unique violations answer as the username's). Accounts come with a personal
 * namespace: create them through `CreateUserUseCase` of `@app/namespaces`.
 */
@Injectable()
export class CreateUserAccountUseCase {
  constructor(
    private readonly dataSource: DataSource,
    private readonly users: UsersRepository,
    private readonly outbox: OutboxService,
    private readonly settings: SettingsReader,
  ) {}

  async execute(command: CreateUserCommand, manager?: EntityManager, withUser?: UserCreatedStep): Promise<UserEntity> {
    if (/\.(git|atom)$/i.test(command.username) || RESERVED_USERNAMES.has(command.username.toLowerCase())) {
      throw DomainError.invalid({ username: ['is reserved'] });
    }
    const settings = await this.settings.get();
    const domainRestriction = command.checkEmailDomain ? emailDomainRestriction(settings, command.email) : null;
    if (domainRestriction) throw DomainError.invalid({ email: [domainRestriction] });
    const passwordDigest = await hashPassword(command.password ?? randomBytes(24).toString('base64url'));
    const run = async (tx: EntityManager): Promise<UserEntity> => {
      const user = await this.users.insert(tx, {
        email: command.email,
        name: command.name,
        username: command.username,
        passwordDigest,
        isAdmin: command.admin ?? false,
        external: command.external ?? false,
        privateProfile: command.privateProfile ?? false,
        canCreateGroup: command.canCreateGroup ?? true,
        projectsLimit: command.projectsLimit ?? settings.number('default_projects_limit'),
        userType: command.userType ?? 'human',
        confirmedAt: new Date(),
        ...command.profile,
      });
      if (withUser) await withUser(tx, user);
      await this.outbox.append(tx, {
        type: IDENTITY_EVENTS.USER_CREATE,
        actor: command.actorId,
        target: { type: 'user', id: user.id, title: user.username },
        data: { user_id: user.id, name: user.name, username: user.username, email: user.email, user_type: user.userType },
      });
      return user;
    };
    try {
      return manager ? await run(manager) : await this.dataSource.transaction(run);
    } catch (error) {
      const constraint = uniqueViolation(error);
      if (constraint === 'users_email_lower_key') throw DomainError.conflict('Email has already been taken');
      if (constraint !== null) throw DomainError.conflict('Username has already been taken');
      throw error;
    }
  }
}
