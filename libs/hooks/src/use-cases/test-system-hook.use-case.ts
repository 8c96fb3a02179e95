import { Injectable } from '@nestjs/common';
import { DomainError } from '@app/api';
import { UserEntity } from '@app/identity';
import { ProjectEntity } from '@app/namespaces';
import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { HookDeliverer } from '../delivery/hook-deliverer';
import { SystemHooksRepository } from '../core/system-hooks.repository';

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
 * or made up) to the hook, once, and answers the sample. As GitLab, the answer does not depend
 * on the delivery's outcome: the attempt is in the hook's delivery log (like any delivery:
 * signed, subject to the outbound policy; a success re-enables a disabled hook).
 */
@Injectable()
export class TestSystemHookUseCase {
  constructor(
    private readonly dataSource: DataSource,
    private readonly hooks: SystemHooksRepository,
    private readonly deliverer: HookDeliverer,
  ) {}

  async execute(hookId: number): Promise<SampleProjectCreateEvent> {
    const hook = await this.hooks.findWithToken(hookId);
    if (!hook) throw DomainError.notFound('System hook');
    const sample = await this.sample();
    const key = randomUUID();
    await this.deliverer.deliver({
      hook,
      eventId: null,
      trigger: 'project_create',
      body: JSON.stringify(sample),
      idempotencyKey: key,
      occurredAt: null,
      chainId: key,
      chainDepth: 1,
      attempt: 1,
    });
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
