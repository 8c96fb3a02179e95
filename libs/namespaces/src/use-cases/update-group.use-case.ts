import { Injectable } from '@nestjs/common';
import { DomainError, tierAtLeast, ValidationMessages } from '@app/api';
import { AppConfig } from '@app/config';
import { uniqueViolation } from '@app/database';
import { NewDomainEvent, OutboxService } from '@app/messaging';
import { DataSource, EntityManager } from 'typeorm';
import { AccessUser, mostVisible, visibilityWithin } from '../access/access-policy';
import { NamespaceEntity, Visibility } from '../entities/namespace.entity';
import { applyGroupSettings } from '../settings/group-settings';
import { groupEvent, NAMESPACE_EVENTS } from '../events/namespaces.events';
import { NAMING_MESSAGES, validateGroupNaming } from '../naming/naming';
import { GroupsRepository } from '../repositories/groups.repository';
import { visibilityNotAllowedByParent } from './create-group.use-case';

export interface UpdateGroupCommand {
  actor: AccessUser;
  groupId: number;
  name?: string;
  path?: string;
  description?: string;
  visibility?: Visibility;
  settings?: Record<string, unknown>;
}

/**
 * Edits a group (owners; checked on the route). A new path or name is carried into the full
 * path and full name of every subgroup. Records `group_update`, and `group_rename` when the
 * path changed.
 */
@Injectable()
export class UpdateGroupUseCase {
  constructor(
    private readonly dataSource: DataSource,
    private readonly config: AppConfig,
    private readonly outbox: OutboxService,
    private readonly groups: GroupsRepository,
  ) {}

  async execute(command: UpdateGroupCommand): Promise<NamespaceEntity> {
    try {
      return await this.dataSource.transaction((tx) => this.update(tx, command));
    } catch (error) {
      if (uniqueViolation(error) === 'namespaces_full_path_lower_key') throw DomainError.invalid({ path: [NAMING_MESSAGES.taken] });
      throw error;
    }
  }

  private async update(tx: EntityManager, command: UpdateGroupCommand): Promise<NamespaceEntity> {
    const group = await this.groups.findById(command.groupId, tx, { lock: true });
    if (!group) throw DomainError.notFound('Group');
    const parent = group.parentId !== null ? await this.groups.getByIdIn(tx, group.parentId) : null;

    const naming = validateGroupNaming({ name: command.name, path: command.path }, parent === null);
    if (Object.keys(naming).length > 0) throw DomainError.invalid(naming);

    const old = { path: group.path, fullPath: group.fullPath, fullName: group.fullName };
    const renamed = command.path !== undefined && command.path !== group.path;
    const retitled = command.name !== undefined && command.name !== group.name;
    const fullPath = renamed ? (parent ? `${parent.fullPath}/${command.path}` : command.path!) : group.fullPath;
    const taken: ValidationMessages = {};
    if (renamed && (await this.groups.pathTaken(fullPath, parent, group.id, tx))) taken.path = [NAMING_MESSAGES.taken];
    if (retitled && parent && (await this.groups.nameTaken(command.name!, parent.id, group.id, tx))) taken.name = [NAMING_MESSAGES.taken];
    if (Object.keys(taken).length > 0) throw DomainError.invalid(taken);

    if (command.visibility !== undefined && command.visibility !== group.visibility) {
      await this.checkVisibility(tx, group, parent, command.visibility);
      group.visibility = command.visibility;
    }
    if (renamed) group.path = command.path!;
    if (retitled) group.name = command.name!;
    group.fullPath = fullPath;
    group.fullName = parent ? `${parent.fullName} / ${group.name}` : group.name;
    if (command.description !== undefined) group.description = command.description;
    applyGroupSettings(group, command.settings ?? {}, { premium: tierAtLeast(this.config.tier, 'premium') });
    await this.groups.save(tx, group);

    if (group.fullPath !== old.fullPath || group.fullName !== old.fullName) {
      await this.groups.renameDescendants(tx, group.id, old, group);
    }
    const updated = await this.groups.getByIdIn(tx, group.id);
    const events: NewDomainEvent[] = [groupEvent(NAMESPACE_EVENTS.GROUP_UPDATE, command.actor.id, updated)];
    if (renamed) events.push(groupEvent(NAMESPACE_EVENTS.GROUP_RENAME, command.actor.id, updated, { old_path: old.path, old_full_path: old.fullPath }));
    await this.outbox.append(tx, events);
    return updated;
  }

  /** GitLab's three group visibility rules: within the parent, not below a subgroup, not below a project. */
  private async checkVisibility(tx: EntityManager, group: NamespaceEntity, parent: NamespaceEntity | null, visibility: Visibility): Promise<void> {
    if (parent && !visibilityWithin(visibility, parent.visibility)) {
      throw DomainError.invalid({ visibility_level: [visibilityNotAllowedByParent(visibility, parent.visibility)] });
    }
    const children = await this.groups.childVisibilities(group, tx);
    if (!visibilityWithin(mostVisible(children.subgroups), visibility)) {
      throw DomainError.invalid({ visibility_level: [`${visibility} is not allowed since there are sub-groups with higher visibility.`] });
    }
    if (!visibilityWithin(mostVisible(children.projects), visibility)) {
      throw DomainError.invalid({ visibility_level: [`${visibility} is not allowed since this group contains projects with higher visibility.`] });
    }
  }
}
