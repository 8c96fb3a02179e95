import { Injectable, Logger } from '@nestjs/common';
import { DomainError } from '@app/api';
import { OutboxService } from '@app/messaging';
import { DataSource } from 'typeorm';
import { HookDeliveriesRepository } from '../delivery/hook-deliveries.repository';
import { redactHookUrl } from '../core/hook-url';
import { SYSTEM_HOOK_EVENTS, systemHookEvent } from '../core/hooks.events';
import { SystemHooksRepository } from '../core/system-hooks.repository';

export interface DeleteSystemHookCommand {
  hookId: number;
  actorId: number;
}

/** `DELETE /hooks/:id`, with the hook's delivery log (its queued deliveries find no hook and end). */
@Injectable()
export class DeleteSystemHookUseCase {
  private readonly logger = new Logger(DeleteSystemHookUseCase.name);

  constructor(
    private readonly dataSource: DataSource,
    private readonly outbox: OutboxService,
    private readonly hooks: SystemHooksRepository,
    private readonly deliveries: HookDeliveriesRepository,
  ) {}

  async execute({ hookId, actorId }: DeleteSystemHookCommand): Promise<void> {
    const url = await this.dataSource.transaction(async (tx) => {
      const hook = await this.hooks.findWithToken(hookId, tx, true);
      if (!hook) throw DomainError.notFound('System hook');
      await this.hooks.delete(hook.id, tx);
      await this.deliveries.deleteOfHook(tx, hook.id);
      await this.outbox.append(tx, systemHookEvent(SYSTEM_HOOK_EVENTS.DESTROY, actorId, hook, hook.encryptedToken !== null));
      return hook.url;
    });
    this.logger.log(`system hook ${hookId} (${redactHookUrl(url)}) deleted by user ${actorId}`);
  }
}
