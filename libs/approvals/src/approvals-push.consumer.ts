import { Injectable } from '@nestjs/common';
import { CataloguedEvent, CONSUMER_GROUPS, DomainEventConsumerOptions, DomainEventSubscriber } from '@app/messaging';
import { Push, pushOf } from '@app/repository';
import { ResetApprovalsOnPushUseCase } from './use-cases/reset-approvals-on-push/reset-approvals-on-push.use-case';

/** The branch whose new commits a push brings, or null (tags, creations, deletions). */
export function pushedBranch(push: Push): { projectId: number; branch: string; occurredAt: Date } | null {
  if (push.projectId === null || push.branch === null || push.created || push.deleted) return null;
  return { projectId: push.projectId, branch: push.branch, occurredAt: push.occurredAt };
}

/**
 * `reset_approvals_on_push` (`ResetApprovalsOnPushUseCase`): a consumer of the `push` domain
 * event, so the push answers without waiting. Idempotent and safe on redelivery: only approvals
 * given before the push are removed, so a late redelivery never removes a newer one.
 */
@Injectable()
export class ApprovalsPushConsumer extends DomainEventSubscriber {
  constructor(private readonly resetApprovalsOnPush: ResetApprovalsOnPushUseCase) {
    super();
  }

  protected consumerOptions(): DomainEventConsumerOptions {
    return { groupId: CONSUMER_GROUPS.APPROVALS, handlers: { push: (event) => this.handle(event) } };
  }

  async handle(event: CataloguedEvent<'push'>): Promise<void> {
    const push = pushedBranch(pushOf(event));
    if (!push) return;
    await this.resetApprovalsOnPush.execute(push);
  }
}
