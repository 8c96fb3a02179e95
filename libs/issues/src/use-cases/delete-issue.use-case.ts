import { Injectable } from '@nestjs/common';
import { DomainError } from '@app/api';
import { OutboxService } from '@app/messaging';
import type { ProjectWithNamespace } from '@app/namespaces';
import { DataSource } from 'typeorm';
import { IssueEntity } from '../entities/issue.entity';
import { ISSUES_EVENTS, issueEvent } from '../events/issues.events';

/** Deletes an issue (project owners and administrators; checked on the route) and records `issue.destroyed`. */
@Injectable()
export class DeleteIssueUseCase {
  constructor(
    private readonly dataSource: DataSource,
    private readonly outbox: OutboxService,
  ) {}

  execute(command: { actorId: number; project: ProjectWithNamespace; iid: number }): Promise<void> {
    return this.dataSource.transaction(async (tx) => {
      const issue = await tx.findOne(IssueEntity, { where: { projectId: command.project.id, iid: command.iid }, lock: { mode: 'pessimistic_write' } });
      if (!issue) throw DomainError.notFound('Issue');
      await tx.delete(IssueEntity, { id: issue.id });
      const { namespace } = command.project;
      await this.outbox.append(tx, issueEvent(ISSUES_EVENTS.ISSUE_DESTROYED, command.actorId, issue, namespace.kind === 'group' ? namespace.id : null));
    });
  }
}
