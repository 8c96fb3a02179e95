import { Injectable, Logger } from '@nestjs/common';
import { DomainError } from '@app/api';
import { OutboxService } from '@app/messaging';
import { DataSource } from 'typeorm';
import { HEALTHY } from '../core/hook-health';
import { UpdateSystemHookDto } from '../dto/system-hook.dto';
import { SystemHookEntity } from '../entities/system-hook.entity';
import { OutboundUrlPolicy } from '../delivery/outbound-url-policy';
import { HookTokenCipher } from '../core/hook-token-cipher';
import { hookUrlProblem, redactHookUrl } from '../core/hook-url';
import { SYSTEM_HOOK_EVENTS, systemHookEvent } from '../core/hooks.events';
import { SystemHooksRepository } from '../core/system-hooks.repository';

export interface UpdateSystemHookCommand {
  hookId: number;
  attributes: UpdateSystemHookDto;
  actorId: number;
}

/**
 * `PUT /hooks/:id`: changes the given attributes only. A given `token` replaces the stored one;
 * an empty `token` removes it. Any update also re-enables a hook disabled by failing deliveries
 * (`alert_status` back to `executable`). The event lists the changed attribute names (never the token).
 */
@Injectable()
export class UpdateSystemHookUseCase {
  private readonly logger = new Logger(UpdateSystemHookUseCase.name);

  constructor(
    private readonly dataSource: DataSource,
    private readonly outbox: OutboxService,
    private readonly hooks: SystemHooksRepository,
    private readonly cipher: HookTokenCipher,
    private readonly outbound: OutboundUrlPolicy,
  ) {}

  async execute({ hookId, attributes, actorId }: UpdateSystemHookCommand): Promise<SystemHookEntity> {
    if (attributes.url !== undefined) {
      const problem = hookUrlProblem(attributes.url);
      if (problem) throw DomainError.invalid({ url: [problem] });
      await this.outbound.assertHookUrlAllowed(attributes.url);
    }

    const updated = await this.dataSource.transaction(async (tx) => {
      const hook = await this.hooks.findWithToken(hookId, tx, true);
      if (!hook) throw DomainError.notFound('System hook');
      const changed = applyChanges(hook, attributes, this.cipher);
      // An administrator's update re-enables a hook that failing deliveries disabled.
      if (hook.alertStatus !== 'executable' || hook.recentFailures !== 0 || hook.backoffCount !== 0) {
        Object.assign(hook, HEALTHY);
        changed.push('alert_status');
      }
      if (changed.length === 0) return hook;
      const row = await this.hooks.save(hook, tx);
      await this.outbox.append(tx, systemHookEvent(SYSTEM_HOOK_EVENTS.UPDATE, actorId, row, row.encryptedToken !== null, { changed_attributes: changed }));
      return row;
    });
    this.logger.log(`system hook ${updated.id} (${redactHookUrl(updated.url)}) updated by user ${actorId}`);
    return updated;
  }
}

/** Applies the given attributes and answers the names of those that changed. */
function applyChanges(hook: SystemHookEntity, attributes: UpdateSystemHookDto, cipher: HookTokenCipher): string[] {
  const changed: string[] = [];
  const set = <K extends keyof SystemHookEntity>(name: string, key: K, value: SystemHookEntity[K] | undefined): void => {
    if (value === undefined || hook[key] === value) return;
    hook[key] = value;
    changed.push(name);
  };
  set('url', 'url', attributes.url);
  set('push_events', 'pushEvents', attributes.push_events);
  set('tag_push_events', 'tagPushEvents', attributes.tag_push_events);
  set('merge_requests_events', 'mergeRequestsEvents', attributes.merge_requests_events);
  set('repository_update_events', 'repositoryUpdateEvents', attributes.repository_update_events);
  set('enable_ssl_verification', 'enableSslVerification', attributes.enable_ssl_verification);
  if (attributes.token !== undefined) {
    if (storedToken(hook, cipher) !== attributes.token) {
      hook.encryptedToken = attributes.token === '' ? null : cipher.encrypt(attributes.token);
      changed.push('token');
    }
  }
  return changed;
}

/** The stored token in clear ('' when none); null when it cannot be decrypted (another key), so any given token replaces it. */
function storedToken(hook: SystemHookEntity, cipher: HookTokenCipher): string | null {
  if (!hook.encryptedToken) return '';
  try {
    return cipher.decrypt(hook.encryptedToken);
  } catch {
    return null;
  }
}
