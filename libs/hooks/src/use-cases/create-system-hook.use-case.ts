import { Injectable, Logger } from '@nestjs/common';
import { DomainError } from '@app/api';
import { OutboxService } from '@app/messaging';
import { DataSource } from 'typeorm';
import { CreateSystemHookDto } from '../dto/system-hook.dto';
import { SystemHookEntity } from '../entities/system-hook.entity';
import { OutboundUrlPolicy } from '../delivery/outbound-url-policy';
import { HookTokenCipher } from '../core/hook-token-cipher';
import { hookUrlProblem, redactHookUrl } from '../core/hook-url';
import { SYSTEM_HOOK_EVENTS, systemHookEvent } from '../core/hooks.events';
import { SystemHooksRepository } from '../core/system-hooks.repository';

export interface CreateSystemHookCommand {
  attributes: CreateSystemHookDto;
  actorId: number;
}

/**
 * `POST /hooks`. Defaults follow GitLab's system hooks: `repository_update_events` and
 * `enable_ssl_verification` on, the other flags off.
 */
@Injectable()
export class CreateSystemHookUseCase {
  private readonly logger = new Logger(CreateSystemHookUseCase.name);

  constructor(
    private readonly dataSource: DataSource,
    private readonly outbox: OutboxService,
    private readonly hooks: SystemHooksRepository,
    private readonly cipher: HookTokenCipher,
    private readonly outbound: OutboundUrlPolicy,
  ) {}

  async execute({ attributes, actorId }: CreateSystemHookCommand): Promise<SystemHookEntity> {
    const problem = hookUrlProblem(attributes.url);
    if (problem) throw DomainError.invalid({ url: [problem] });
    await this.outbound.assertHookUrlAllowed(attributes.url);

    const hook = new SystemHookEntity();
    hook.url = attributes.url;
    hook.encryptedToken = attributes.token ? this.cipher.encrypt(attributes.token) : null;
    hook.pushEvents = attributes.push_events ?? false;
    hook.tagPushEvents = attributes.tag_push_events ?? false;
    hook.mergeRequestsEvents = attributes.merge_requests_events ?? false;
    hook.repositoryUpdateEvents = attributes.repository_update_events ?? true;
    hook.enableSslVerification = attributes.enable_ssl_verification ?? true;

    const saved = await this.dataSource.transaction(async (tx) => {
      const row = await this.hooks.save(hook, tx);
      await this.outbox.append(tx, systemHookEvent(SYSTEM_HOOK_EVENTS.CREATE, actorId, row, row.encryptedToken !== null));
      return row;
    });
    this.logger.log(`system hook ${saved.id} created for ${redactHookUrl(saved.url)} by user ${actorId}`);
    return saved;
  }
}
