import { Injectable, Logger } from '@nestjs/common';
import { ProjectionsRepository } from '../projection/projections.repository';

/** Removes contribution events older than `olderThanYears` (GitLab keeps 3 years). Returns how many. */
@Injectable()
export class PruneEventsUseCase {
  private readonly logger = new Logger(PruneEventsUseCase.name);

  constructor(private readonly projections: ProjectionsRepository) {}

  async execute(command: { olderThanYears: number; now?: Date }): Promise<number> {
    const cutoff = new Date(command.now ?? Date.now());
    cutoff.setUTCFullYear(cutoff.getUTCFullYear() - command.olderThanYears);
    const removed = await this.projections.deleteEventsBefore(cutoff);
    if (removed > 0) this.logger.log(`removed ${removed} events older than ${cutoff.toISOString()}`);
    return removed;
  }
}
