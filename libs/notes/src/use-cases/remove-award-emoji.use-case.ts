import { Injectable } from '@nestjs/common';
import { DomainError, ErrorCode } from '@app/api';
import { NotesRepository } from '../repositories/notes.repository';
import type { Awardable } from './award-emoji.use-case';

export interface RemoveAwardEmojiCommand {
  awardable: Awardable;
  awardId: number;
  actor: { id: number; isAdmin: boolean };
}

/** `DELETE …/award_emoji/:award_id`: 404 `Award Emoji` unless on the awardable; by its user or an administrator (401 otherwise, as GitLab). */
@Injectable()
export class RemoveAwardEmojiUseCase {
  constructor(private readonly notes: NotesRepository) {}

  async execute({ awardable, awardId, actor }: RemoveAwardEmojiCommand): Promise<void> {
    const award = await this.notes.findAward(awardable, awardId);
    if (!award) throw DomainError.notFound('Award Emoji');
    if (award.userId !== actor.id && !actor.isAdmin) throw new DomainError(ErrorCode.UNAUTHORIZED, '401 Unauthorized');
    await this.notes.deleteAward(award.id);
  }
}
