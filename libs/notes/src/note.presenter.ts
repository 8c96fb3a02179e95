import { Injectable } from '@nestjs/common';
import { AppConfig } from '@app/config';
import { presentUserSummary, UserEntity } from '@app/identity';
import { DataSource, In } from 'typeorm';
import type { AwardEmojiEntity } from './entities/award-emoji.entity';
import type { NoteEntity } from './entities/note.entity';
import type { Noteable } from './noteable';

/** Who reads: the author's `email` is shown to administrators and to the author themself. */
export interface NoteViewer {
  id: number;
  isAdmin: boolean;
}

/** GitLab's `resolvable?`: the notes of a merge request thread (not individual notes, not system notes). */
export const isResolvable = (note: NoteEntity, noteable: Noteable): boolean => noteable.type === 'MergeRequest' && note.type === 'DiscussionNote' && !note.system;

/** Notes and award emoji in GitLab's shapes, their users loaded in one query. */
@Injectable()
export class NotePresenter {
  constructor(
    private readonly dataSource: DataSource,
    private readonly config: AppConfig,
  ) {}

  async users(ids: number[]): Promise<Map<number, UserEntity>> {
    const unique = [...new Set(ids)];
    if (unique.length === 0) return new Map();
    const users = await this.dataSource.manager.findBy(UserEntity, { id: In(unique) });
    return new Map(users.map((user) => [user.id, user]));
  }

  /** The user summary with `created_at`, and `email` for administrators and the user themself. */
  author(user: UserEntity | undefined, viewer: NoteViewer | null): Record<string, unknown> | null {
    if (!user) return null;
    const view: Record<string, unknown> = { ...presentUserSummary(user, this.config.http.externalUrl), created_at: user.createdAt.toISOString() };
    if (viewer && (viewer.isAdmin || viewer.id === user.id)) view.email = user.email;
    return view;
  }

  async notes(notes: NoteEntity[], noteable: Noteable, viewer: NoteViewer | null, extra: Record<string, unknown> = {}): Promise<Record<string, unknown>[]> {
    const users = await this.users(notes.flatMap((note) => (note.resolvedById ? [note.authorId, note.resolvedById] : [note.authorId])));
    return notes.map((note) => ({
      id: note.id,
      type: note.type,
      body: note.body,
      attachment: null,
      author: this.author(users.get(note.authorId), viewer),
      created_at: note.createdAt.toISOString(),
      updated_at: note.updatedAt.toISOString(),
      system: note.system,
      noteable_id: noteable.id,
      noteable_type: noteable.type,
      project_id: noteable.projectId,
      resolvable: isResolvable(note, noteable),
      // GitLab shows the resolution of resolvable notes only.
      ...(isResolvable(note, noteable)
        ? { resolved: note.resolvedAt !== null, resolved_by: note.resolvedById ? this.author(users.get(note.resolvedById), viewer) : null, resolved_at: note.resolvedAt?.toISOString() ?? null }
        : {}),
      confidential: note.internal,
      internal: note.internal,
      imported: false,
      imported_from: 'none',
      noteable_iid: noteable.iid,
      commands_changes: {},
      ...noteable.noteFields,
      ...extra,
    }));
  }

  async note(note: NoteEntity, noteable: Noteable, viewer: NoteViewer | null, extra: Record<string, unknown> = {}): Promise<Record<string, unknown>> {
    return (await this.notes([note], noteable, viewer, extra))[0];
  }

  async award(award: AwardEmojiEntity): Promise<Record<string, unknown>> {
    return (await this.awards([award]))[0];
  }

  async awards(awards: AwardEmojiEntity[]): Promise<Record<string, unknown>[]> {
    const users = await this.users(awards.map((award) => award.userId));
    return awards.map((award) => this.presentAward(award, users.get(award.userId)));
  }

  private presentAward(award: AwardEmojiEntity, user: UserEntity | undefined): Record<string, unknown> {
    return {
      id: award.id,
      name: award.name,
      user: user ? presentUserSummary(user, this.config.http.externalUrl) : null,
      created_at: award.createdAt.toISOString(),
      updated_at: award.updatedAt.toISOString(),
      awardable_id: award.awardableId,
      awardable_type: award.awardableType,
    };
  }
}
