import { Injectable, Logger } from '@nestjs/common';
import { DomainError } from '@app/api/errors';
import { UserEntity } from '@app/identity/entities/user.entity';
import { ProjectEntity } from '@app/namespaces/entities/project.entity';
import { DataSource } from 'typeorm';
import { HOOK_USER_AGENT, HookHttpClient } from '../delivery/hook-http-client';
import { HookTokenCipher } from '../hook-token-cipher';
import { redactHookUrl } from '../hook-url';
import { SystemHooksRepository } from '../system-hooks.repository';

/** The sample event of a test delivery. */
export interface SampleProjectCreateEvent {
  project_id: number;
  owner_email: string;
  owner_name: string;
  name: string;
  path: string;
  event_name: 'project_create';
}

/** Used when the instance has no project yet. */
export const MADE_UP_SAMPLE: SampleProjectCreateEvent = {
  project_id: 1,
  owner_email: 'example@example.com',
  owner_name: 'Someone',
  name: 'Ruby',
  path: 'ruby',
  event_name: 'project_create',
};

/**
 * `POST /hooks/:id`: POSTs a sample `project_create` event (built from the most recent project,
 * or made up) to the hook and answers the sample. As GitLab, the answer does not depend on
 * the delivery's outcome: a receiver that fails or cannot be reached is logged, not reported.
 */
@Injectable()
export class TestSystemHookUseCase {
  private readonly logger = new Logger(TestSystemHookUseCase.name);

  constructor(
    private readonly dataSource: DataSource,
    private readonly hooks: SystemHooksRepository,
    private readonly cipher: HookTokenCipher,
    private readonly http: HookHttpClient,
  ) {}

  async execute(hookId: number): Promise<SampleProjectCreateEvent> {
    const hook = await this.hooks.findWithToken(hookId);
    if (!hook) throw DomainError.notFound('System hook');
    const sample = await this.sample();
    const headers: Record<string, string> = {
      'Content-Type': 'application/json',
      'User-Agent': HOOK_USER_AGENT,
      'X-Service-Event': 'System Hook',
    };
    const target = `system hook ${hook.id} (${redactHookUrl(hook.url)})`;
    if (hook.encryptedToken) {
      try {
        headers['X-Service-Token'] = this.cipher.decrypt(hook.encryptedToken);
      } catch (error) {
        // Never deliver without the token the receiver expects: the key must be restored or the token set again.
        this.logger.error(`test delivery to ${target} skipped: ${(error as Error).message}`);
        return sample;
      }
    }
    const outcome = await this.http.post({ url: hook.url, headers, body: JSON.stringify(sample), verifyTls: hook.enableSslVerification });
    if (outcome.ok) this.logger.log(`test delivery to ${target}: HTTP ${outcome.status}`);
    else this.logger.warn(`test delivery to ${target} failed: ${outcome.error}`);
    return sample;
  }

  private async sample(): Promise<SampleProjectCreateEvent> {
    const project = await this.dataSource.getRepository(ProjectEntity).findOne({ where: {}, order: { id: 'DESC' } });
    if (!project) return { ...MADE_UP_SAMPLE };
    const owner = project.creatorId === null ? null : await this.dataSource.getRepository(UserEntity).findOneBy({ id: project.creatorId });
    return {
      project_id: project.id,
      owner_email: owner?.email ?? MADE_UP_SAMPLE.owner_email,
      owner_name: owner?.name ?? MADE_UP_SAMPLE.owner_name,
      name: project.name,
      path: project.path,
      event_name: 'project_create',
    };
  }
}
