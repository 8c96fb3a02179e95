import { Injectable } from '@nestjs/common';
import { DomainError } from '@app/api';
import { DataSource } from 'typeorm';
import type { AwardEmojiEntity } from '../entities/award-emoji.entity';
import { NotesRepository } from '../repositories/notes.repository';
import { isEmojiName } from '../quick-actions/quick-actions';

/** What awards hang on: a noteable itself, or one of its notes (type `Note`). */
export interface Awardable {
  type: string;
  id: number;
  /** A system note takes no award. */
  system: boolean;
}

export interface AwardEmojiCommand {
  awardable: Awardable;
  name: string;
  userId: number;
}

/** GitLab's `AwardEmojis::AddService`: a known emoji name, once per user (404 `Award Emoji <reason>` otherwise, as GitLab answers). */
@Injectable()
export class AwardEmojiUseCase {
  constructor(
    private readonly dataSource: DataSource,
    private readonly notes: NotesRepository,
  ) {}

  async execute({ awardable, name, userId }: AwardEmojiCommand): Promise<AwardEmojiEntity> {
    if (awardable.system) throw DomainError.notFound('Award Emoji');
    if (!isEmojiName(name)) throw DomainError.notFound('Award Emoji Name is not a valid emoji name');
    const { award, created } = await this.dataSource.transaction((tx) => this.notes.award(tx, awardable, name, userId));
    if (!created) throw DomainError.notFound('Award Emoji Name has already been taken');
    return award;
  }
}
