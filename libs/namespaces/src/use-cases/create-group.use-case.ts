import { Injectable } from '@nestjs/common';
import { DomainError, tierAtLeast } from '@app/api';
import { AppConfig } from '@app/config';
import { UsersRepository } from '@app/identity';
import { uniqueViolation } from '@app/database';
import { OutboxService } from '@app/messaging';
import { defaultVisibilityWithin, SettingsReader } from '@app/settings';
import { DataSource, EntityManager } from 'typeorm';
import { AccessUser, subgroupCreationMinLevel, visibilityWithin } from '../access/access-policy';
import { AccessService } from '../resolver/access.service';
import { ACCESS_LEVELS } from '../entities/member.entity';
import { NamespaceEntity, Visibility } from '../entities/namespace.entity';
import { applyGroupSettings, groupSetting } from '../settings/group-settings';
import { groupEvent, groupMemberEvent, NAMESPACE_EVENTS } from '../events/namespaces.events';
import { NAMING_MESSAGES, validateGroupNaming } from '../naming/naming';
import { GroupsRepository } from '../repositories/groups.repository';
import { MembersRepository } from '../repositories/members.repository';

export interface CreateGroupCommand {
  actor: AccessUser;
  name: string;
  path: string;
  parentId?: number | null;
  description?: string;
  visibility?: Visibility;
  /** Further validated group attributes (`request_access_enabled`, `project_creation_level`...). */
  settings?: Record<string, unknown>;
}

export const visibilityNotAllowedByParent = (visibility: Visibility, parent: Visibility): string =>
  `${visibility} is not allowed since the parent group has a ${parent} visibility.`;

/**
 * Creates a group or subgroup; the creator becomes its Owner. Records `group_create` and
 * `user_add_to_group`. Top-level groups need `can_create_group`; subgroups need the parent's
 * `subgroup_creation_level` (Maintainer by default); administrators may always.
 */
@Injectable()
export class CreateGroupUseCase {
  constructor(
    private readonly dataSource: DataSource,
    private readonly config: AppConfig,
    private readonly outbox: OutboxService,
    private readonly access: AccessService,
    private readonly groups: GroupsRepository,
    private readonly settings: SettingsReader,
    private readonly members: MembersRepository,
    private readonly users: UsersRepository,
  ) {}

  async execute(command: CreateGroupCommand): Promise<NamespaceEntity> {
    try {
      return await this.dataSource.transaction((tx) => this.create(tx, command));
    } catch (error) {
      if (uniqueViolation(error) === 'namespaces_full_path_lower_key') throw DomainError.invalid({ path: [NAMING_MESSAGES.taken] });
      throw error;
    }
  }

  private async create(tx: EntityManager, command: CreateGroupCommand): Promise<NamespaceEntity> {
    const { actor } = command;
    const creator = await this.users.findById(actor.id, tx);
    if (!creator) throw DomainError.unauthorized();

    const parent = command.parentId != null ? await this.authorizeSubgroup(tx, command.parentId, actor) : null;
    if (!parent && !actor.isAdmin && !creator.canCreateGroup) throw DomainError.forbidden();

    const naming = validateGroupNaming({ name: command.name, path: command.path }, parent === null);
    if (Object.keys(naming).length > 0) throw DomainError.invalid(naming);

    // Without a visibility: the instance default (`default_group_visibility`), lowered to what the parent allows.
    const visibility =
      command.visibility ?? defaultVisibilityWithin((await this.settings.get()).string('default_group_visibility') as Visibility, parent?.visibility ?? null);
    if (parent && !visibilityWithin(visibility, parent.visibility)) {
      throw DomainError.invalid({ visibility_level: [visibilityNotAllowedByParent(visibility, parent.visibility)] });
    }
    const fullPath = parent ? `${parent.fullPath}/${command.path}` : command.path;
    const taken: Record<string, string[]> = {};
    if (await this.groups.pathTaken(fullPath, parent, null, tx)) taken.path = [NAMING_MESSAGES.taken];
    if (parent && (await this.groups.nameTaken(command.name, parent.id, null, tx))) taken.name = [NAMING_MESSAGES.taken];
    if (Object.keys(taken).length > 0) throw DomainError.invalid(taken);

    const group = tx.create(NamespaceEntity, {
      name: command.name,
      path: command.path,
      fullPath,
      fullName: parent ? `${parent.fullName} / ${command.name}` : command.name,
      kind: 'group',
      parentId: parent?.id ?? null,
      ownerId: null,
      description: command.description ?? '',
      visibility,
      settings: {},
    });
    applyGroupSettings(group, command.settings ?? {}, { premium: tierAtLeast(this.config.tier, 'premium') });
    const saved = await this.groups.save(tx, group);
    await this.groups.setTraversalIds(tx, saved.id, [...(parent?.traversalIds ?? []), saved.id]);
    const created = await this.groups.getByIdIn(tx, saved.id);

    const membership = await this.members.add(tx, {
      sourceType: 'namespace',
      sourceId: created.id,
      userId: creator.id,
      accessLevel: ACCESS_LEVELS.OWNER,
      createdById: creator.id,
      expiresAt: null,
    });
    await this.outbox.append(tx, [
      groupEvent(NAMESPACE_EVENTS.GROUP_CREATE, actor.id, created),
      groupMemberEvent(NAMESPACE_EVENTS.USER_ADD_TO_GROUP, actor.id, created, membership, creator),
    ]);
    return created;
  }

  private async authorizeSubgroup(tx: EntityManager, parentId: number, actor: AccessUser): Promise<NamespaceEntity> {
    const parent = await this.groups.findById(parentId, tx);
    const access = parent ? await this.access.groupAccess(parent, actor, tx) : null;
    if (!parent || !access?.visible) throw DomainError.notFound('Group');
    if (access.accessLevel < subgroupCreationMinLevel(groupSetting(parent, 'subgroup_creation_level'))) throw DomainError.forbidden();
    return parent;
  }
}
