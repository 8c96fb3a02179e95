import { Type } from '@sinclair/typebox';
import { Data, defineEvents, Id, NullableString } from './event-part';

const BadgeData = Data({
  badge_id: Id,
  kind: Type.String(),
  name: NullableString,
  link_url: Type.String(),
  image_url: Type.String(),
  changed: Type.Optional(Type.Array(Type.String())),
});

/** Events of `libs/badges`: project and group badges (`project_id` for project badges, `group_id` for group badges). */
export const BADGES_EVENT_PART = defineEvents({
  'badge.created': { description: 'A badge was created.', data: BadgeData },
  'badge.updated': { description: 'A badge was changed (`changed`: the attribute names).', data: BadgeData },
  'badge.destroyed': { description: 'A badge was deleted.', data: BadgeData },
});
