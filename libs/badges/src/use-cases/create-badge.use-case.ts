import { Injectable } from '@nestjs/common';
import { OutboxService } from '@app/messaging';
import { DataSource } from 'typeorm';
import { BADGE_EVENTS, badgeEvent } from '../core/badges.events';
import { BadgesRepository } from '../core/badges.repository';
import type { CreateBadgeDto } from '../dto/badge.dto';
import { BadgeEntity } from '../entities/badge.entity';
import { BadgeOwner, checkBadgeUrls, ownerIds } from './badge-commands';

export interface CreateBadgeCommand {
  owner: BadgeOwner;
  attributes: CreateBadgeDto;
  actorId: number;
}

/** `POST /projects/:id/badges` and `POST /groups/:id/badges`. */
@Injectable()
export class CreateBadgeUseCase {
  constructor(
    private readonly dataSource: DataSource,
    private readonly outbox: OutboxService,
    private readonly badges: BadgesRepository,
  ) {}

  async execute({ owner, attributes, actorId }: CreateBadgeCommand): Promise<BadgeEntity> {
    checkBadgeUrls(attributes);
    const badge = new BadgeEntity();
    badge.kind = owner.kind;
    badge.projectId = owner.kind === 'project' ? owner.projectId : null;
    badge.groupId = owner.kind === 'group' ? owner.groupId : null;
    badge.name = attributes.name ?? null;
    badge.linkUrl = attributes.link_url;
    badge.imageUrl = attributes.image_url;
    return this.dataSource.transaction(async (tx) => {
      const saved = await this.badges.save(tx, badge);
      await this.outbox.append(tx, badgeEvent(BADGE_EVENTS.CREATED, actorId, saved, ownerIds(owner)));
      return saved;
    });
  }
}
