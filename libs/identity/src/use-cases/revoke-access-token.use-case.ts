import { Injectable } from '@nestjs/common';
import { DomainError } from '@app/api';
import { OutboxService } from '@app/messaging';
import { DataSource } from 'typeorm';
import { AccessTokensRepository } from '../access-tokens/access-tokens.repository';
import { IDENTITY_EVENTS } from '../events/identity.events';

/** Revokes an access token (idempotent for an already revoked one). */
@Injectable()
export class RevokeAccessTokenUseCase {
  constructor(
    private readonly dataSource: DataSource,
    private readonly tokens: AccessTokensRepository,
    private readonly outbox: OutboxService,
  ) {}

  async execute(command: { tokenId: number; actorId: number }): Promise<void> {
    await this.dataSource.transaction(async (tx) => {
      const token = await this.tokens.findById(command.tokenId, tx);
      if (!token) throw DomainError.notFound('Token');
      if (token.revoked) return;
      await this.tokens.revoke(tx, token.id);
      await this.outbox.append(tx, {
        type: IDENTITY_EVENTS.ACCESS_TOKEN_REVOKE,
        actor: command.actorId,
        target: { type: 'access_token', id: token.id, title: token.name },
        data: { token_id: token.id, user_id: token.userId, resource_type: token.resourceType, resource_id: token.resourceId },
      });
    });
  }
}
