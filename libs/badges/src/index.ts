// libs/badges: the files directly in src/ (this index, the module, the controller, the presenter and the
// render context) compose the folders below and are imported by none of them. Folders, from the top down:
// use-cases/ -> core/ (badge URL rules, domain events, BadgesRepository) -> dto/, entities/.
// Check: `node scripts/folder-cycles.mjs badges`.
export { BadgesModule } from './badges.module';
export { BADGES_ENTITIES } from './entities';
export { BadgeEntity } from './entities/badge.entity';
export { BadgesRepository } from './core/badges.repository';
