import { Injectable } from '@nestjs/common';
import { DomainError } from '@app/api';
import { OutboxService } from '@app/messaging';
import type { ProjectWithNamespace } from '@app/namespaces';
import { DataSource } from 'typeorm';
import { IssuesRepository } from '../repositories/issues.repository';
import { ISSUES_EVENTS, issueEvent } from '../events/issues.events';

/** Deletes an issue (project owners and administrators; checked on the route) and records `issue.destroyed`. */
@Injectable()
export class DeleteIssueUseCase {
  constructor(
    private readonly dataSource: DataSource,
    private readonly outbox: OutboxService,
    private readonly issues: IssuesRepository,
  ) {}

  execute(command: { actorId: number; project: ProjectWithNamespace; iid: number }): Promise<void> {
    return this.dataSource.transaction(async (tx) => {
      const issue = await this.issues.lockByIid(tx, command.project.id, command.iid);
      if (!issue) throw DomainError.notFound('Issue');
      await this.issues.delete(tx, issue.id);
      const { namespace } = command.project;
      await this.outbox.append(tx, issueEvent(ISSUES_EVENTS.ISSUE_DESTROYED, command.actorId, issue, namespace.kind === 'group' ? namespace.id : null));
    });
  }
}
