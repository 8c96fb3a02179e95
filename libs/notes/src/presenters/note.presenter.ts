import { Injectable } from '@nestjs/common';
import { AppConfig } from '@app/config';
import { presentUserSummary, UserEntity, UsersRepository } from '@app/identity';
import type { AwardEmojiEntity } from '../entities/award-emoji.entity';
import type { NoteEntity } from '../entities/note.entity';
import type { Noteable } from '../core/noteable';
import type { ListedNote, ListedUser } from '../repositories/notes.repository';

/** The note columns a note's JSON shows. */
type PresentedNote = Pick<NoteEntity, 'id' | 'type' | 'body' | 'createdAt' | 'updatedAt' | 'system' | 'internal' | 'resolvedAt' | 'resolvedById'>;
/** The user columns an `author` shows. */
type PresentedUser = Pick<UserEntity, 'id' | 'username' | 'name' | 'email' | 'createdAt'> & { state: string };

/** Who reads: the author's `email` is shown to administrators and to the author themself. */
export interface NoteViewer {
  id: number;
  isAdmin: boolean;
}

/** GitLab's `resolvable?`: the notes of a merge request thread (not individual notes, not system notes). */
export const isResolvable = (note: Pick<NoteEntity, 'type' | 'system'>, noteable: Noteable): boolean =>
  noteable.type === 'MergeRequest' && note.type === 'DiscussionNote' && !note.system;

/** Notes and award emoji in GitLab's shapes, their users loaded in one query. */
@Injectable()
export class NotePresenter {
  constructor(
    private readonly usersRepository: UsersRepository,
    private readonly config: AppConfig,
  ) {}

  async users(ids: number[]): Promise<Map<number, UserEntity>> {
    return this.usersRepository.mapByIds(ids);
  }

  /** The user summary with `created_at`, and `email` for administrators and the user themself. */
  author(user: PresentedUser | undefined | null, viewer: NoteViewer | null): Record<string, unknown> | null {
    if (!user) return null;
    // The summary reads the columns of PresentedUser only.
    const view: Record<string, unknown> = { ...presentUserSummary(user as UserEntity, this.config.http.externalUrl), created_at: user.createdAt.toISOString() };
    if (viewer && (viewer.isAdmin || viewer.id === user.id)) view.email = user.email;
    return view;
  }

  async notes(notes: NoteEntity[], noteable: Noteable, viewer: NoteViewer | null, extra: Record<string, unknown> = {}): Promise<Record<string, unknown>[]> {
    const users = await this.users(notes.flatMap((note) => (note.resolvedById ? [note.authorId, note.resolvedById] : [note.authorId])));
    const authors = this.authorsOf(viewer);
    return notes.map((note) =>
      this.present(note, authors(users.get(note.authorId)), note.resolvedById ? authors(users.get(note.resolvedById)) : null, noteable, extra),
    );
  }

  /** A list page as `NotesRepository.listPage` reads it (authors joined): the same JSON as `notes`. */
  listed(notes: ListedNote[], noteable: Noteable, viewer: NoteViewer | null): Record<string, unknown>[] {
    const authors = this.authorsOf(viewer);
    return notes.map((note) => this.present(note, authors(note.author), note.resolvedById ? authors(note.resolvedBy) : null, noteable, {}));
  }

  /** `author` of each user, computed once per user of a page (its avatar URL is a hash of the e-mail). */
  private authorsOf(viewer: NoteViewer | null): (user: PresentedUser | ListedUser | undefined | null) => Record<string, unknown> | null {
    const seen = new Map<number, Record<string, unknown> | null>();
    return (user) => {
      if (!user) return null;
      let view = seen.get(user.id);
      if (view === undefined) {
        view = this.author(user, viewer);
        seen.set(user.id, view);
      }
      return view;
    };
  }

  private present(
    note: PresentedNote,
    author: Record<string, unknown> | null,
    resolvedBy: Record<string, unknown> | null,
    noteable: Noteable,
    extra: Record<string, unknown>,
  ): Record<string, unknown> {
    const resolvable = isResolvable(note, noteable);
    return {
      id: note.id,
      type: note.type,
      body: note.body,
      attachment: null,
      author,
      created_at: note.createdAt.toISOString(),
      updated_at: note.updatedAt.toISOString(),
      system: note.system,
      noteable_id: noteable.id,
      noteable_type: noteable.type,
      project_id: noteable.projectId,
      resolvable,
      // GitLab shows the resolution of resolvable notes only.
      ...(resolvable ? { resolved: note.resolvedAt !== null, resolved_by: resolvedBy, resolved_at: note.resolvedAt?.toISOString() ?? null } : {}),
      confidential: note.internal,
      internal: note.internal,
      imported: false,
      imported_from: 'none',
      noteable_iid: noteable.iid,
      commands_changes: {},
      ...noteable.noteFields,
      ...extra,
    };
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
