import { Injectable, Logger } from '@nestjs/common';
import { CONSUMER_GROUPS, KafkaClient, TOPICS } from '@app/messaging';
import { ProjectionsRepository } from './projections.repository';

/**
 * Rebuilds every projection from the stream: resets the projector's consumer group to the
 * start of the topic, then truncates the projection tables. The projector must be stopped
 * while this runs (Kafka refuses to reset the offsets of a group with live members); when it
 * starts again it replays the whole topic (retention is infinite, see `domainTopicConfigs`).
 */
@Injectable()
export class RebuildProjectionsUseCase {
  private readonly logger = new Logger(RebuildProjectionsUseCase.name);

  constructor(
    private readonly kafka: KafkaClient,
    private readonly projections: ProjectionsRepository,
  ) {}

  async execute(): Promise<void> {
    const groupId = this.kafka.groupId(CONSUMER_GROUPS.PROJECTOR);
    const topic = this.kafka.topic(TOPICS.DOMAIN_EVENTS);
    await this.kafka.ensureTopics();
    await this.kafka.withAdmin(async (admin) => {
      const { groups } = await admin.describeGroups([groupId]);
      const state = groups[0]?.state ?? 'Dead';
      if (state !== 'Empty' && state !== 'Dead') {
        throw new Error(`consumer group ${groupId} is ${state}: stop every projector before rebuilding`);
      }
      if (state === 'Empty') await admin.resetOffsets({ groupId, topic, earliest: true });
    });
    await this.projections.truncate();
    this.logger.log(`projections truncated and ${groupId} reset to the start of ${topic}: start the projector to replay`);
  }
}
