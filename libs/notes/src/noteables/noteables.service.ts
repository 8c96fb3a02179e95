import { Injectable } from '@nestjs/common';
import { DomainError, intParam } from '@app/api';
import { EpicEntity, EpicsRepository, IssueEntity, IssuesRepository, MergeRequestEntity, MergeRequestsRepository } from '@app/issues';
import { ACCESS_LEVELS, NamespaceEntity, ProjectWithNamespace } from '@app/namespaces';
import { SnippetsService } from '@app/snippets';
import { featureReadable } from './feature-access';
import type { Noteable } from '../core/noteable';
import type { ListedIssue } from '../repositories/notes.repository';

/** The viewer of a request as the noteable checks need it. */
export interface NoteableViewer {
  id: number;
  isAdmin: boolean;
}

const groupOfProject = (project: ProjectWithNamespace): number | null => (project.namespace.kind === 'group' ? project.namespace.id : null);

/** A project's issue or merge request, found by `iid`, with the record itself. */
export type ProjectNoteable =
  { noteable: Noteable; kind: 'issue'; issue: IssueEntity } | { noteable: Noteable; kind: 'merge_request'; mergeRequest: MergeRequestEntity };

/** A group's epic and its notes' noteable: epic notes take `/close`, `/reopen` and the label commands. */
export interface EpicNoteable {
  kind: 'epic';
  noteable: Noteable;
  epic: EpicEntity;
  group: NamespaceEntity;
}

export const issueNoteable = (issue: Pick<IssueEntity, 'id' | 'iid' | 'title' | 'authorId' | 'confidential'>, project: ProjectWithNamespace): Noteable => ({
  type: 'Issue',
  id: issue.id,
  iid: issue.iid,
  title: issue.title,
  projectId: project.id,
  groupId: groupOfProject(project),
  authorId: issue.authorId,
  confidential: issue.confidential,
});

export const epicNoteable = (epic: EpicEntity, group: NamespaceEntity): Noteable => ({
  type: 'Epic',
  id: epic.id,
  iid: null,
  title: epic.title,
  projectId: null,
  groupId: group.id,
  authorId: epic.authorId,
  confidential: epic.confidential,
  noteFields: { title: epic.title, file_name: null, expires_at: null },
});

export const mergeRequestNoteable = (mr: MergeRequestEntity, project: ProjectWithNamespace): Noteable => ({
  type: 'MergeRequest',
  id: mr.id,
  iid: mr.iid,
  title: mr.title,
  projectId: project.id,
  groupId: groupOfProject(project),
  authorId: mr.authorId,
  confidential: false,
});

/**
 * Finds the record notes hang on and checks that the caller may read it (and so its notes):
 * 404 as GitLab when it does not exist, when its feature is closed to the caller, or when a
 * confidential issue is not theirs to read.
 */
@Injectable()
export class NoteablesService {
  constructor(
    private readonly issues: IssuesRepository,
    private readonly mergeRequests: MergeRequestsRepository,
    private readonly snippets: SnippetsService,
    private readonly epics: EpicsRepository,
  ) {}

  /**
   * A group's epic by its `id` (not its `iid`: the notes routes address epics by id, and an iid
   * that happens to be another epic's id of another group never reaches it: 404). Confidential
   * epics are read by Reporter+ only.
   */
  async epic(group: NamespaceEntity, rawId: string, viewer: NoteableViewer | null, accessLevel: number): Promise<EpicNoteable> {
    if (group.kind !== 'group') throw DomainError.notFound('Group');
    const epic = await this.epics.findById(group.id, intParam('epic_id', rawId, 'Epic'));
    if (!epic || (epic.confidential && !viewer?.isAdmin && accessLevel < ACCESS_LEVELS.REPORTER)) throw DomainError.notFound('Epic');
    return { kind: 'epic', epic, group, noteable: epicNoteable(epic, group) };
  }

  /** A project snippet by `id`, readable by the caller (its visibility and the snippets feature). */
  async snippet(project: ProjectWithNamespace, rawId: string, viewer: (NoteableViewer & { external: boolean }) | null, accessLevel: number): Promise<Noteable> {
    const snippet = await this.snippets.readable(project, rawId, viewer, accessLevel);
    return {
      type: 'Snippet',
      id: snippet.id,
      iid: null,
      title: snippet.title,
      projectId: project.id,
      groupId: groupOfProject(project),
      authorId: snippet.authorId,
      confidential: false,
      noteFields: { title: snippet.title, file_name: snippet.files?.[0]?.path ?? null, expires_at: null },
    };
  }

  async issue(project: ProjectWithNamespace, iid: number, viewer: NoteableViewer | null, accessLevel: number): Promise<ProjectNoteable & { kind: 'issue' }> {
    const issue = featureReadable(project, 'issues', accessLevel, Boolean(viewer?.isAdmin)) ? await this.issues.findByIid(project.id, iid) : null;
    if (!issue || !this.issues.canRead(issue, viewer && { ...viewer, external: false }, accessLevel)) throw DomainError.notFound('Issue');
    return { kind: 'issue', issue, noteable: issueNoteable(issue, project) };
  }

  /** Whether the issues feature of the project is open to the caller (404 `Issue` otherwise, as `issue`). */
  issuesReadable(project: ProjectWithNamespace, viewer: NoteableViewer | null, accessLevel: number): boolean {
    return featureReadable(project, 'issues', accessLevel, Boolean(viewer?.isAdmin));
  }

  /** An issue read with its notes (`NotesRepository.issueListPage`), checked as `issue` checks it: 404 unless the caller may read it. */
  readableIssue(project: ProjectWithNamespace, issue: ListedIssue | null, viewer: NoteableViewer | null, accessLevel: number): Noteable {
    if (!issue || !this.issues.canRead(issue, viewer && { ...viewer, external: false }, accessLevel)) throw DomainError.notFound('Issue');
    return issueNoteable(issue, project);
  }

  async mergeRequest(
    project: ProjectWithNamespace,
    iid: number,
    viewer: NoteableViewer | null,
    accessLevel: number,
  ): Promise<ProjectNoteable & { kind: 'merge_request' }> {
    const mr = featureReadable(project, 'merge_requests', accessLevel, Boolean(viewer?.isAdmin)) ? await this.mergeRequests.findByIid(project.id, iid) : null;
    if (!mr) throw DomainError.notFound('Merge Request');
    return { kind: 'merge_request', mergeRequest: mr, noteable: mergeRequestNoteable(mr, project) };
  }
}
