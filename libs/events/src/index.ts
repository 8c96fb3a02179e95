// libs/events: folders import only the folders below them, from the top down:
//   retention/ (the prune job and its queue) -> reads/ (EventsRepository, ResourceEventsRepository) -> dto/ -> projection/ -> entities/
// The files directly in src/ (this index, the module, ...) compose them and are imported by none.
// Check: `node scripts/folder-cycles.mjs events`.
export * from './entities';
export * from './events.module';
export * from './reads/events.repository';
export * from './projection/event-projection';
export * from './events-projection.module';
export * from './projection/events.projector';
export * from './projection/projections.repository';
export * from './projection/rebuild-projections.use-case';
export * from './retention/events.jobs';
export * from './projection/projections-rebuild.module';
export * from './retention/events-retention.module';
export * from './retention/prune-events.use-case';
export * from './dto/list-events.dto';
