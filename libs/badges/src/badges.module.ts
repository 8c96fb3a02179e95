import { Module } from '@nestjs/common';
import { BadgeContextService } from './badge-context.service';
import { BadgesController } from './badges.controller';
import { BadgesRepository } from './core/badges.repository';
import { BadgeCommitReader } from './commit-reader';
import { CreateBadgeUseCase } from './use-cases/create-badge.use-case';
import { DeleteBadgeUseCase } from './use-cases/delete-badge.use-case';
import { UpdateBadgeUseCase } from './use-cases/update-badge.use-case';

/**
 * Project and group badges (`/projects/:id/badges`, `/groups/:id/badges`).
 * Needs the global ConfigModule, DatabaseModule and MessagingModule.
 */
@Module({
  controllers: [BadgesController],
  providers: [BadgesRepository, BadgeCommitReader, BadgeContextService, CreateBadgeUseCase, UpdateBadgeUseCase, DeleteBadgeUseCase],
  exports: [BadgesRepository, BadgeContextService],
})
export class BadgesModule {}
