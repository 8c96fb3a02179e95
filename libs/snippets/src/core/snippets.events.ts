import type { DomainEventData, DomainEventType, NewDomainEvent } from '@app/messaging';
import type { SnippetEntity } from '../entities/snippet.entity';

/** Domain event types of project snippets. Never rename: they are stored in the stream. */
export const SNIPPET_EVENTS = {
  CREATED: 'snippet.created',
  UPDATED: 'snippet.updated',
  DESTROYED: 'snippet.destroyed',
} as const satisfies Record<string, DomainEventType>;

export type SnippetEventType = (typeof SNIPPET_EVENTS)[keyof typeof SNIPPET_EVENTS];

/** The event of a snippet change (target `snippet`; `visibility` lets event lists hide private snippets). */
export function snippetEvent(
  type: SnippetEventType,
  actorId: number,
  snippet: SnippetEntity,
  groupId: number | null,
  extra: Omit<DomainEventData<SnippetEventType>, 'snippet'> = {},
): NewDomainEvent<SnippetEventType> {
  return {
    type,
    actor: actorId,
    projectId: snippet.projectId,
    groupId,
    target: { type: 'snippet', id: snippet.id, iid: null, title: snippet.title },
    data: {
      snippet: {
        id: snippet.id,
        title: snippet.title,
        visibility: snippet.visibility,
        author_id: snippet.authorId,
        file_names: (snippet.files ?? []).map((f) => f.path),
      },
      ...extra,
    },
  };
}
