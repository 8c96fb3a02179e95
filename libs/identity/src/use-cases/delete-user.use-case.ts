import { Injectable } from '@nestjs/common';
import { DomainError } from '@app/api';
import { NewDomainEvent, OutboxService } from '@app/messaging';
import { MemberEntity, NAMESPACE_EVENTS, NamespaceEntity, ProjectEntity, projectEvent, ProjectsRepository } from '@app/namespaces';
import { DataSource, In } from 'typeorm';
import { UserEntity } from '../entities';
import { IDENTITY_EVENTS } from '../identity.events';

/**
 * Deletes a user with its personal namespace, that namespace's projects and every
 * membership; records `project_destroy` for each project and `user_destroy`. A user who
 * is the only owner of a group is refused (409), as in GitLab: ownership moves first.
 */
@Injectable()
export class DeleteUserUseCase {
  constructor(
    private readonly dataSource: DataSource,
    private readonly outbox: OutboxService,
    private readonly projects: ProjectsRepository,
  ) {}

  async execute(command: { userId: number; actorId: number }): Promise<void> {
    await this.dataSource.transaction(async (tx) => {
      const user = await tx.findOne(UserEntity, { where: { id: command.userId }, lock: { mode: 'pessimistic_write' } });
      if (!user) throw DomainError.notFound('User');
      const soleOwned: Array<{ full_path: string }> = await tx.query(
        `SELECT n.full_path FROM members m JOIN namespaces n ON n.id = m.source_id
          WHERE m.source_type = 'namespace' AND m.user_id = $1 AND m.access_level >= 50
            AND NOT EXISTS (SELECT 1 FROM members o WHERE o.source_type = 'namespace' AND o.source_id = m.source_id
                             AND o.user_id <> $1 AND o.access_level >= 50)`,
        [user.id],
      );
      if (soleOwned.length > 0) {
        throw DomainError.conflict(`User is the sole owner of ${soleOwned.map((g) => g.full_path).join(', ')}: transfer ownership or delete those groups first`);
      }

      const namespace = await tx.findOneBy(NamespaceEntity, { kind: 'user', ownerId: user.id });
      const events: NewDomainEvent[] = [];
      if (namespace) {
        const projects = await tx.find(ProjectEntity, { where: { namespaceId: namespace.id }, order: { id: 'ASC' } });
        for (const project of projects) {
          events.push(projectEvent(NAMESPACE_EVENTS.PROJECT_DESTROY, command.actorId, await this.projects.hookContext(project, namespace, tx)));
        }
        if (projects.length > 0) {
          await tx.delete(MemberEntity, { sourceType: 'project', sourceId: In(projects.map((p) => p.id)) });
          await tx.delete(ProjectEntity, { id: In(projects.map((p) => p.id)) });
        }
        await tx.delete(NamespaceEntity, { id: namespace.id });
      }
      await tx.delete(MemberEntity, { userId: user.id });
      await tx.delete(UserEntity, { id: user.id });
      events.push({
        type: IDENTITY_EVENTS.USER_DESTROY,
        actor: command.actorId,
        target: { type: 'user', id: user.id, title: user.username },
        data: { user_id: user.id, name: user.name, username: user.username, email: user.email },
      });
      await this.outbox.append(tx, events);
    });
  }
}
