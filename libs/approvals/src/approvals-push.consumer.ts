import { Injectable } from '@nestjs/common';
import { CONSUMER_GROUPS, DomainEvent, DomainEventConsumerOptions, DomainEventSubscriber } from '@app/messaging';
import { PUSH_EVENTS, ZERO_SHA } from '@app/repository';
import { ResetApprovalsOnPushUseCase } from './use-cases/reset-approvals-on-push/reset-approvals-on-push.use-case';

/** The branch whose new commits a push event brings, or null (tags, creations, deletions, other events). */
export function pushedBranch(event: DomainEvent): { projectId: number; branch: string; occurredAt: Date } | null {
  if (event.type !== PUSH_EVENTS.PUSH || event.project_id === null) return null;
  const { ref, before, after } = event.data as { ref?: unknown; before?: unknown; after?: unknown };
  if (typeof ref !== 'string' || !ref.startsWith('refs/heads/') || typeof before !== 'string' || typeof after !== 'string') return null;
  if (before === ZERO_SHA || after === ZERO_SHA) return null;
  return { projectId: event.project_id, branch: ref.slice('refs/heads/'.length), occurredAt: new Date(event.occurred_at) };
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
    return { groupId: CONSUMER_GROUPS.APPROVALS, handler: (event) => this.handle(event) };
  }

  async handle(event: DomainEvent): Promise<void> {
    const push = pushedBranch(event);
    if (!push) return;
    await this.resetApprovalsOnPush.execute(push);
  }
}
