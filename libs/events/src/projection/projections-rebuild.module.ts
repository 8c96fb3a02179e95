import { Module } from '@nestjs/common';
import { ProjectionsRepository } from './projections.repository';
import { RebuildProjectionsUseCase } from './rebuild-projections.use-case';

/** The projection tables and their rebuild, without the consumer (for the rebuild command). */
@Module({
  providers: [ProjectionsRepository, RebuildProjectionsUseCase],
  exports: [ProjectionsRepository, RebuildProjectionsUseCase],
})
export class ProjectionsRebuildModule {}
