export { BadgesModule } from './badges.module';
export { BADGES_ENTITIES } from './entities';
export { BadgeEntity } from './entities/badge.entity';
export { BadgesRepository } from './badges.repository';
