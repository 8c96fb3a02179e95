import { Injectable } from '@nestjs/common';
import { OutboxService } from '@app/messaging';
import { DataSource } from 'typeorm';
import { BADGE_EVENTS, badgeEvent } from '../core/badges.events';
import { BadgesRepository } from '../core/badges.repository';
import type { BadgeEntity } from '../entities/badge.entity';
import { BadgeOwner, ownerIds } from './badge-commands';

export interface DeleteBadgeCommand {
  owner: BadgeOwner;
  badge: BadgeEntity;
  actorId: number;
}

/** `DELETE …/badges/:badge_id`. */
@Injectable()
export class DeleteBadgeUseCase {
  constructor(
    private readonly dataSource: DataSource,
    private readonly outbox: OutboxService,
    private readonly badges: BadgesRepository,
  ) {}

  async execute({ owner, badge, actorId }: DeleteBadgeCommand): Promise<void> {
    await this.dataSource.transaction(async (tx) => {
      if (await this.badges.delete(tx, badge.id)) await this.outbox.append(tx, badgeEvent(BADGE_EVENTS.DESTROYED, actorId, badge, ownerIds(owner)));
    });
  }
}
