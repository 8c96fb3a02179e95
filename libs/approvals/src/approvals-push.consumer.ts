import { Injectable } from '@nestjs/common';
import { CataloguedEvent, CONSUMER_GROUPS, DomainEventConsumerOptions, DomainEventSubscriber } from '@app/messaging';
import { Push, pushOf } from '@app/repository';
import { DataSource } from 'typeorm';

/** The branch whose new commits a push brings, or null (tags, creations, deletions). */
export function pushedBranch(push: Push): { projectId: number; branch: string; occurredAt: Date } | null {
  if (push.projectId === null || push.branch === null || push.created || push.deleted) return null;
  return { projectId: push.projectId, branch: push.branch, occurredAt: push.occurredAt };
}

/**
 * `reset_approvals_on_push`: a push of new commits to the source branch of open merge requests
 * removes their approvals (as GitLab, without approval events or hooks). A consumer of the `push`
 * domain event, so the push answers without waiting. Idempotent and safe on redelivery: only
 * approvals given before the push are removed, so a late redelivery never removes a newer one.
 */
@Injectable()
export class ApprovalsPushConsumer extends DomainEventSubscriber {
  constructor(private readonly dataSource: DataSource) {
    super();
  }

  protected consumerOptions(): DomainEventConsumerOptions {
    return { groupId: CONSUMER_GROUPS.APPROVALS, handlers: { push: (event) => this.handle(event) } };
  }

  async handle(event: CataloguedEvent<'push'>): Promise<void> {
    const push = pushedBranch(pushOf(event));
    if (!push) return;
    await this.dataSource.query(
      `DELETE FROM merge_request_approvals a
       USING merge_requests mr
       LEFT JOIN approval_project_settings s ON s.project_id = mr.project_id
       WHERE a.merge_request_id = mr.id AND mr.project_id = $1 AND mr.source_branch = $2 AND mr.state = 'opened'
         AND COALESCE(s.reset_approvals_on_push, true) AND a.created_at < $3`,
      [push.projectId, push.branch, push.occurredAt],
    );
  }
}
