import { Injectable } from '@nestjs/common';
import { AppConfig } from '@app/config';
import { UserEntity } from '@app/identity/entities';
import { presentUserSummary } from '@app/identity/user.presenter';
import { DataSource, In } from 'typeorm';
import { EventEntity } from './entities/event.entity';
import { actionNameOf } from './projection/event-projection';

/** Contribution events in GitLab's shape, with their authors loaded in one query. */
@Injectable()
export class EventPresenter {
  constructor(
    private readonly dataSource: DataSource,
    private readonly config: AppConfig,
  ) {}

  async present(events: EventEntity[]): Promise<Record<string, unknown>[]> {
    const authorIds = [...new Set(events.map((e) => e.authorId))];
    const users = authorIds.length ? await this.dataSource.manager.findBy(UserEntity, { id: In(authorIds) }) : [];
    const byId = new Map(users.map((u) => [u.id, u]));
    return events.map((e) => {
      const author = byId.get(e.authorId);
      const view: Record<string, unknown> = {
        id: Number(e.id),
        title: null,
        project_id: e.projectId,
        action_name: actionNameOf(e.action, e.targetType, e.pushData),
        target_id: e.targetId,
        target_iid: e.targetIid ?? e.targetId,
        target_type: e.targetType,
        author_id: e.authorId,
        target_title: e.targetTitle,
        created_at: e.createdAt.toISOString(),
        author: author ? presentUserSummary(author, this.config.http.externalUrl) : null,
        imported: false,
        imported_from: 'none',
        author_username: author?.username ?? null,
      };
      if (e.pushData) view.push_data = e.pushData;
      if (e.note) view.note = e.note;
      return view;
    });
  }
}
