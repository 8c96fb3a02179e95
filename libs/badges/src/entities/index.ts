import { BadgeEntity } from './badge.entity';

export { BadgeEntity };
export type { BadgeKind } from './badge.entity';

/** The entities of the badges library, listed in the data source's `ENTITIES`. */
export const BADGES_ENTITIES = [BadgeEntity];
