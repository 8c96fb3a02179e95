import { Type } from '@sinclair/typebox';
import { Data, defineEvents, Id } from './event-part';

const SnippetData = Data({
  snippet: Data({ id: Id, title: Type.String(), visibility: Type.String(), author_id: Id, file_names: Type.Array(Type.String()) }),
  changed: Type.Optional(Type.Array(Type.String())),
});

/** Events of `libs/snippets`: project snippets (`target` `{type: 'snippet', id, title}`). */
export const SNIPPETS_EVENT_PART = defineEvents({
  'snippet.created': { description: 'A project snippet was created.', data: SnippetData },
  'snippet.updated': { description: 'A project snippet changed (`changed`: attribute names, `files` for file changes).', data: SnippetData },
  'snippet.destroyed': { description: 'A project snippet was deleted.', data: SnippetData },
});
