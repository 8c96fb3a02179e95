import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager, SelectQueryBuilder } from 'typeorm';
import { AwardEmojiEntity } from './entities/award-emoji.entity';
import { NoteEntity } from './entities/note.entity';
import type { Noteable } from './noteable';

@Injectable()
export class NotesRepository {
  constructor(private readonly dataSource: DataSource) {}

  /**
   * The notes of a noteable the viewer may read: internal notes only with `readsAllInternal`
   * or when `viewerId` wrote them. Ordered by the caller (offset) or the keyset helper.
   */
  listQuery(noteable: Noteable, viewer: { readsAllInternal: boolean; id: number | null }, order: { orderBy: 'created_at' | 'updated_at'; sort: 'asc' | 'desc' }): SelectQueryBuilder<NoteEntity> {
    const qb = this.dataSource.manager
      .createQueryBuilder(NoteEntity, 'n')
      .where('n.noteable_type = :type AND n.noteable_id = :noteableId', { type: noteable.type, noteableId: noteable.id });
    if (!viewer.readsAllInternal) {
      if (viewer.id === null) qb.andWhere('n.internal = false');
      else qb.andWhere('(n.internal = false OR n.author_id = :viewerId)', { viewerId: viewer.id });
    }
    const direction = order.sort === 'asc' ? 'ASC' : 'DESC';
    return qb.orderBy(order.orderBy === 'updated_at' ? 'n.updatedAt' : 'n.createdAt', direction).addOrderBy('n.id', direction);
  }

  /**
   * Discussions, by their first notes (one row per discussion the viewer may read), oldest
   * first as GitLab lists them: a page of this query is a page of discussions.
   */
  discussionsQuery(noteable: Noteable, viewer: { readsAllInternal: boolean; id: number | null }): SelectQueryBuilder<NoteEntity> {
    return this.listQuery(noteable, viewer, { orderBy: 'created_at', sort: 'asc' }).andWhere('NOT EXISTS (SELECT 1 FROM notes p WHERE p.discussion_id = n.discussion_id AND p.id < n.id)');
  }

  /** The notes of these discussions of the noteable that the viewer may read, oldest first. */
  discussionNotes(noteable: Noteable, discussionIds: string[], viewer: { readsAllInternal: boolean; id: number | null }): Promise<NoteEntity[]> {
    if (discussionIds.length === 0) return Promise.resolve([]);
    return this.listQuery(noteable, viewer, { orderBy: 'created_at', sort: 'asc' }).andWhere('n.discussion_id IN (:...discussionIds)', { discussionIds }).getMany();
  }

  find(noteable: Noteable, id: number, manager: EntityManager = this.dataSource.manager): Promise<NoteEntity | null> {
    return manager.findOneBy(NoteEntity, { id, noteableType: noteable.type, noteableId: noteable.id });
  }

  save(manager: EntityManager, note: NoteEntity): Promise<NoteEntity> {
    return manager.getRepository(NoteEntity).save(note);
  }

  async delete(manager: EntityManager, id: number): Promise<boolean> {
    const result = await manager.delete(NoteEntity, { id });
    return (result.affected ?? 0) > 0;
  }

  /** Awards `name` from `userId` once; an award already given is returned as it is. */
  async award(manager: EntityManager, noteable: Pick<Noteable, 'id'> & { type: string }, name: string, userId: number): Promise<{ award: AwardEmojiEntity; created: boolean }> {
    const inserted = (await manager.query(
      `INSERT INTO award_emoji (name, user_id, awardable_type, awardable_id) VALUES ($1, $2, $3, $4)
       ON CONFLICT (awardable_type, awardable_id, name, user_id) DO NOTHING RETURNING id`,
      [name, userId, noteable.type, noteable.id],
    )) as Array<{ id: number }>;
    const award = await manager.findOneByOrFail(AwardEmojiEntity, { awardableType: noteable.type, awardableId: noteable.id, name, userId });
    return { award, created: inserted.length > 0 };
  }
}
