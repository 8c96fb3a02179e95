import type { NoteableType } from '../entities/note.entity';

/** What notes need to know about the record they hang on. */
export interface Noteable {
  type: NoteableType;
  id: number;
  /** Issues and merge requests only (GitLab's `noteable_iid`); null otherwise. */
  iid: number | null;
  title: string;
  /** The project of an issue, merge request or snippet; null for an epic. */
  projectId: number | null;
  /** The project's group, or the epic's group. */
  groupId: number | null;
  authorId: number;
  /** A confidential issue or epic. */
  confidential: boolean;
  /** Fields the spec adds to the notes of this kind (snippet notes: `title`, `file_name`, `expires_at`). */
  noteFields?: Record<string, unknown>;
}

/** Who acts on notes, and with which access level on the noteable's project or group. */
export interface NoteActor {
  id: number;
  username: string;
  isAdmin: boolean;
  /** Effective access level on the project (or group, for epics); 60 for administrators. */
  accessLevel: number;
}
