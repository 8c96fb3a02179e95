import { Injectable } from '@nestjs/common';
import { OutboxService } from '@app/messaging';
import { DataSource } from 'typeorm';
import { BADGE_EVENTS, badgeEvent } from '../core/badges.events';
import { BadgesRepository } from '../core/badges.repository';
import type { UpdateBadgeDto } from '../dto/badge.dto';
import type { BadgeEntity } from '../entities/badge.entity';
import { BadgeOwner, checkBadgeUrls, ownerIds } from './badge-commands';

export interface UpdateBadgeCommand {
  owner: BadgeOwner;
  /** A badge of the owner itself (the controller refuses inherited group badges). */
  badge: BadgeEntity;
  attributes: UpdateBadgeDto;
  actorId: number;
}

/** `PUT …/badges/:badge_id`: only the given attributes change. */
@Injectable()
export class UpdateBadgeUseCase {
  constructor(
    private readonly dataSource: DataSource,
    private readonly outbox: OutboxService,
    private readonly badges: BadgesRepository,
  ) {}

  async execute({ owner, badge, attributes, actorId }: UpdateBadgeCommand): Promise<BadgeEntity> {
    checkBadgeUrls(attributes);
    const changed: string[] = [];
    if (attributes.link_url !== undefined && attributes.link_url !== badge.linkUrl) {
      badge.linkUrl = attributes.link_url;
      changed.push('link_url');
    }
    if (attributes.image_url !== undefined && attributes.image_url !== badge.imageUrl) {
      badge.imageUrl = attributes.image_url;
      changed.push('image_url');
    }
    if (attributes.name !== undefined && attributes.name !== badge.name) {
      badge.name = attributes.name;
      changed.push('name');
    }
    if (changed.length === 0) return badge;
    return this.dataSource.transaction(async (tx) => {
      const saved = await this.badges.save(tx, badge);
      await this.outbox.append(tx, badgeEvent(BADGE_EVENTS.UPDATED, actorId, saved, ownerIds(owner), { changed }));
      return saved;
    });
  }
}
