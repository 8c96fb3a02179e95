import { Injectable } from '@nestjs/common';
import { AppConfig } from '@app/config';
import type { UserEntity } from '@app/identity';
import { presentUserSummary } from '@app/identity';
import type { EventRow } from './reads/events.repository';
import { actionNameOf } from './projection/event-projection';

/** Contribution events in GitLab's shape; the authors come with the rows (see `EventsRepository.page`). */
@Injectable()
export class EventPresenter {
  constructor(private readonly config: AppConfig) {}

  present(events: EventRow[]): Record<string, unknown>[] {
    const externalUrl = this.config.http.externalUrl;
    const authors = new Map<number, Record<string, unknown> | null>();
    const authorOf = (e: EventRow): Record<string, unknown> | null => {
      let summary = authors.get(e.authorId);
      if (summary === undefined) {
        // The joined columns are the ones the user summary reads.
        summary = e.author ? presentUserSummary(e.author as UserEntity, externalUrl) : null;
        authors.set(e.authorId, summary);
      }
      return summary;
    };
    return events.map((e) => {
      const author = authorOf(e);
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
        author,
        imported: false,
        imported_from: 'none',
        author_username: e.author?.username ?? null,
      };
      if (e.pushData) view.push_data = e.pushData;
      if (e.note) view.note = e.note;
      return view;
    });
  }
}
