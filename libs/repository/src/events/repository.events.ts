import { avatarUrl } from '@app/identity';
import type { CataloguedEvent, DomainEventData, DomainEventType, NewDomainEvent } from '@app/messaging';
import type { NamespaceEntity, ProjectEntity } from '@app/namespaces';
import { pathWithNamespace, projectUrls } from '@app/namespaces';
import { GitRepository, RefUpdate, ZERO_SHA } from '../git/git-repository';

/** Domain event types of pushes. Never rename: they are stored in the stream. */
export const PUSH_EVENTS = {
  PUSH: 'push',
  TAG_PUSH: 'tag_push',
  REPOSITORY_UPDATE: 'repository_update',
} as const satisfies Record<string, DomainEventType>;

/** Commits carried in one push event (GitLab's limit); `total_commits_count` has them all. */
export const PUSH_COMMITS_LIMIT = 20;

export interface Pusher {
  id: number;
  name: string;
  username: string;
  email: string;
}

type Project = ProjectEntity & { namespace: NamespaceEntity };

const VISIBILITY_LEVEL: Record<string, number> = { private: 0, internal: 10, public: 20 };

/** The `project` object of push hooks. */
export function pushProjectPayload(project: Project, externalUrl: string): Record<string, unknown> {
  const urls = projectUrls(project, project.namespace, externalUrl);
  return {
    id: project.id,
    name: project.name,
    description: project.description,
    web_url: urls.web_url,
    avatar_url: null,
    git_ssh_url: urls.ssh_url_to_repo,
    git_http_url: urls.http_url_to_repo,
    namespace: project.namespace.name,
    visibility_level: VISIBILITY_LEVEL[project.visibility] ?? 0,
    path_with_namespace: pathWithNamespace(project, project.namespace),
    default_branch: project.defaultBranch,
    homepage: urls.web_url,
    url: urls.ssh_url_to_repo,
    ssh_url: urls.ssh_url_to_repo,
    http_url: urls.http_url_to_repo,
  };
}

function repositoryPayload(project: Project, externalUrl: string): Record<string, unknown> {
  const urls = projectUrls(project, project.namespace, externalUrl);
  return {
    name: project.name,
    url: urls.ssh_url_to_repo,
    description: project.description,
    homepage: urls.web_url,
    git_http_url: urls.http_url_to_repo,
    git_ssh_url: urls.ssh_url_to_repo,
    visibility_level: VISIBILITY_LEVEL[project.visibility] ?? 0,
  };
}

const isTag = (ref: string): boolean => ref.startsWith('refs/tags/');
const isBranch = (ref: string): boolean => ref.startsWith('refs/heads/');

/**
 * The domain events of one accepted push, to append to the outbox in the transaction that
 * records it: `push` per branch, `tag_push` per tag, then one `repository_update`. Reads the
 * repository after the refs moved; commits of a new branch are those no other ref had.
 */
export async function buildPushEvents(
  repository: GitRepository,
  project: Project,
  pusher: Pusher,
  updates: RefUpdate[],
  externalUrl: string,
): Promise<NewDomainEvent[]> {
  const relevant = updates.filter((u) => isBranch(u.ref) || isTag(u.ref));
  if (relevant.length === 0) return [];
  const projectPayload = pushProjectPayload(project, externalUrl);
  const webUrl = projectUrls(project, project.namespace, externalUrl).web_url;
  const envelope = {
    actor: pusher.id,
    projectId: project.id,
    groupId: project.namespace.kind === 'group' ? project.namespace.id : null,
    target: { type: 'project', id: project.id, title: project.name },
  };
  const user = { user_id: pusher.id, user_name: pusher.name, user_username: pusher.username, user_email: pusher.email, user_avatar: avatarUrl(pusher.email) };
  const updatedRefs = relevant.map((u) => u.ref);
  const events: NewDomainEvent[] = [];
  for (const update of relevant) {
    const tag = isTag(update.ref);
    const deleted = update.after === ZERO_SHA;
    const commits = tag || deleted ? { list: [], total: 0 } : await pushCommits(repository, update, updatedRefs, webUrl);
    events.push({
      ...envelope,
      type: tag ? PUSH_EVENTS.TAG_PUSH : PUSH_EVENTS.PUSH,
      data: {
        object_kind: tag ? 'tag_push' : 'push',
        event_name: tag ? 'tag_push' : 'push',
        before: update.before,
        after: update.after,
        ref: update.ref,
        checkout_sha: deleted ? null : await repository.resolveCommit(update.after),
        message: tag && !deleted ? await repository.tagMessage(update.after) : null,
        ...user,
        project_id: project.id,
        project: projectPayload,
        commits: commits.list,
        total_commits_count: commits.total,
        repository: repositoryPayload(project, externalUrl),
      },
    });
  }
  events.push({
    ...envelope,
    type: PUSH_EVENTS.REPOSITORY_UPDATE,
    data: {
      event_name: 'repository_update',
      user_id: pusher.id,
      user_name: pusher.name,
      user_email: pusher.email,
      user_avatar: avatarUrl(pusher.email),
      project_id: project.id,
      project: projectPayload,
      changes: relevant.map((u) => ({ before: u.before, after: u.after, ref: u.ref })),
      refs: updatedRefs,
    },
  });
  return events;
}

/** The last 20 commits of a branch update, oldest first, and how many there were in all. */
async function pushCommits(
  repository: GitRepository,
  update: RefUpdate,
  updatedRefs: string[],
  webUrl: string,
): Promise<{ list: Record<string, unknown>[]; total: number }> {
  const created = update.before === ZERO_SHA;
  const { shas, total } = created
    ? await repository.revList(update.after, [], { limit: PUSH_COMMITS_LIMIT, excludeAllRefsBut: updatedRefs })
    : await repository.revList(update.after, [update.before], { limit: PUSH_COMMITS_LIMIT });
  const commits = await repository.commits(shas.reverse());
  const list = await Promise.all(
    commits.map(async (commit) => ({
      id: commit.id,
      message: commit.message,
      title: commit.title,
      timestamp: commit.authoredDate.replace(/\.000(?=[+\-]|Z)/, ''),
      url: `${webUrl}/-/commit/${commit.id}`,
      author: { name: commit.authorName, email: commit.authorEmail },
      ...(await repository.fileChanges(commit.id)),
    })),
  );
  return { list, total };
}

/** What a `push` / `tag_push` event says, parsed once for its consumers. */
export interface Push {
  projectId: number | null;
  /** The full ref (`refs/heads/main`, `refs/tags/v1`). */
  ref: string;
  /** The branch name of a branch push, null for a tag. */
  branch: string | null;
  before: string;
  after: string;
  /** The ref was created (`before` is the zero SHA) or deleted (`after` is). */
  created: boolean;
  deleted: boolean;
  /** The last commits the event carries (at most `PUSH_COMMITS_LIMIT`, oldest first). */
  commits: DomainEventData<'push'>['commits'];
  occurredAt: Date;
}

/** The push of a `push` or `tag_push` event (its data checked against the catalogue by the consumer). */
export function pushOf(event: CataloguedEvent<typeof PUSH_EVENTS.PUSH | typeof PUSH_EVENTS.TAG_PUSH>): Push {
  const { ref, before, after, commits } = event.data;
  return {
    projectId: event.project_id,
    ref,
    branch: event.type === PUSH_EVENTS.PUSH && isBranch(ref) ? ref.slice('refs/heads/'.length) : null,
    before,
    after,
    created: before === ZERO_SHA,
    deleted: after === ZERO_SHA,
    commits,
    occurredAt: new Date(event.occurred_at),
  };
}
