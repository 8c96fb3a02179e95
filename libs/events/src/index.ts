// libs/events: folders import only the folders below them, from the top down:
//   retention/ (the prune job and its queue) -> reads/ (EventsRepository, ResourceEventsRepository) -> dto/ -> projection/ -> entities/
// The files directly in src/ (this index, the module, ...) compose them and are imported by none.
// Check: `node scripts/folder-cycles.mjs events`.
//
// Other libs, the apps and the tests use these names only.
export {
  EventEntity,
  ProjectedEventEntity,
  ProjectEventPositionEntity,
  ResourceIterationEventEntity,
  ResourceMilestoneEventEntity,
  ResourceStateEventEntity,
  ResourceWeightEventEntity,
} from './entities';
export { EventsModule } from './events.module';
export { EventsRepository } from './reads/events.repository';
export { planProjection } from './projection/event-projection';
export { EventsProjectionModule } from './events-projection.module';
export { EventsProjector } from './projection/events.projector';
export { ProjectionsRepository } from './projection/projections.repository';
export { RebuildProjectionsUseCase } from './projection/rebuild-projections.use-case';
export { EVENTS_RETENTION } from './retention/events.jobs';
export { ProjectionsRebuildModule } from './projection/projections-rebuild.module';
export { PruneEventsUseCase } from './retention/prune-events.use-case';
export { ListEventsDto } from './dto/list-events.dto';
