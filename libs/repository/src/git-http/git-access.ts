import { Inject, Injectable, Optional } from '@nestjs/common';
import { AUTHENTICATOR, Authenticator, JOB_TOKEN_GIT_USER, JOB_TOKEN_RESOLVER, JobTokenResolver, Principal } from '@app/api';
import { AuthenticateWithPasswordUseCase, toPrincipalUser } from '@app/identity';
import { ACCESS_LEVELS, AccessService, projectFeatureReadable, ProjectsRepository, ProjectWithNamespace, toAccessUser } from '@app/namespaces';

export type GitService = 'git-upload-pack' | 'git-receive-pack';

/** The realm of the Basic challenge: the git client prompts for (or sends) a username and a token. */
export const GIT_REALM = 'Service';

/** A refusal, in the plain-text form git clients print (`remote: ...` / `fatal: ...`). */
export class GitAccessDenied extends Error {
  constructor(
    readonly status: 401 | 403 | 404,
    message: string,
  ) {
    super(message);
  }
}

export interface GitAccess {
  project: ProjectWithNamespace;
  principal: Principal | null;
  accessLevel: number;
}

const NOT_FOUND = "The project you were looking for could not be found or you don't have permission to view it.";
const UNAUTHORIZED =
  "HTTP Basic: Access denied. If a password was provided for Git authentication, the password was incorrect or you're required to use a token instead of a password.";

/** Token scopes that allow each service (a session has none; tokens need one of these). */
const SCOPES: Record<GitService, string[]> = {
  'git-upload-pack': ['api', 'read_api', 'read_repository', 'write_repository'],
  'git-receive-pack': ['api', 'write_repository'],
};

/**
 * Who may clone and push over HTTP, as GitLab decides it: public projects clone without
 * credentials, internal ones for any signed-in (non-external) user, private ones for Reporter+;
 * pushing needs Developer+ (branch protection is checked later, per ref). Credentials are
 * HTTP Basic: any username with a personal/project/group access token or an OAuth token as the
 * password (or the user's own password). Anonymous callers get 401 for anything they may not
 * see, so that git prompts for credentials; signed-in callers get 404 for projects they
 * cannot see.
 */
@Injectable()
export class GitAccessService {
  constructor(
    @Inject(AUTHENTICATOR) private readonly authenticator: Authenticator,
    private readonly passwords: AuthenticateWithPasswordUseCase,
    private readonly access: AccessService,
    private readonly projects: ProjectsRepository,
    @Optional() @Inject(JOB_TOKEN_RESOLVER) private readonly jobTokens?: JobTokenResolver,
  ) {}

  async authorize(projectPath: string, service: GitService, authorization: string | undefined): Promise<GitAccess> {
    const basic = basicCredentials(authorization);
    if (basic?.login === JOB_TOKEN_GIT_USER && this.jobTokens) return this.authorizeJob(projectPath, service, basic.password);
    const principal = await this.authenticate(authorization);
    if (principal && !SCOPES[service].some((scope) => principal.scopes.includes(scope)) && principal.credential !== 'session') {
      throw new GitAccessDenied(403, 'Your token does not have the scope this operation requires (read_repository or write_repository).');
    }
    const project = projectPath ? await this.projects.findByRef(projectPath) : null;
    const user = toAccessUser(principal);
    const access = project ? await this.access.projectAccess(project, user) : null;
    if (!project || !access?.visible) throw principal ? new GitAccessDenied(404, NOT_FOUND) : new GitAccessDenied(401, UNAUTHORIZED);
    const level = access.accessLevel;
    // The same rule as the API's repository routes: Reporter in a private project, the
    // `repository_access_level` elsewhere (members only, disabled).
    const readsCode = projectFeatureReadable(project, 'repository', level);
    if (service === 'git-upload-pack') {
      if (!readsCode) {
        throw principal ? new GitAccessDenied(403, 'You are not allowed to download code from this project.') : new GitAccessDenied(401, UNAUTHORIZED);
      }
    } else {
      if (!principal) throw new GitAccessDenied(401, UNAUTHORIZED);
      if (level < ACCESS_LEVELS.DEVELOPER || !readsCode) throw new GitAccessDenied(403, 'You are not allowed to push code to this project.');
      if (project.archived) throw new GitAccessDenied(403, 'You are not allowed to push code to an archived project.');
    }
    return { project, principal, accessLevel: level };
  }

  /**
   * A CI job fetching its project (`gitlab-ci-token:<CI_JOB_TOKEN>`): read-only, its own project
   * only, and only while the job runs.
   */
  private async authorizeJob(projectPath: string, service: GitService, token: string): Promise<GitAccess> {
    const identity = token ? await this.jobTokens!.resolveRunning(token) : null;
    if (!identity) throw new GitAccessDenied(401, UNAUTHORIZED);
    const project = projectPath ? await this.projects.findByRef(projectPath) : null;
    if (!project || project.id !== identity.projectId) throw new GitAccessDenied(404, NOT_FOUND);
    if (service !== 'git-upload-pack') throw new GitAccessDenied(403, 'You are not allowed to upload code.');
    return { project, principal: null, accessLevel: ACCESS_LEVELS.REPORTER };
  }

  private async authenticate(authorization: string | undefined): Promise<Principal | null> {
    if (!authorization) return null;
    const match = /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(authorization);
    if (!match) throw new GitAccessDenied(401, UNAUTHORIZED);
    const decoded = Buffer.from(match[1], 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    const login = colon === -1 ? decoded : decoded.slice(0, colon);
    const password = colon === -1 ? '' : decoded.slice(colon + 1);
    if (!password) throw new GitAccessDenied(401, UNAUTHORIZED);
    const byToken = await this.authenticator.authenticate({ bearer: password }, { jobTokenAllowed: false, safeMethod: true });
    if (byToken) return byToken;
    if (login) {
      // The user's own password: wrong ones count towards the account lockout (as GitLab's
      // `increment_failed_attempts`), and a locked account is refused with the same 401.
      const result = await this.passwords.execute({ login, password });
      if (result.outcome === 'authenticated') return { user: toPrincipalUser(result.user), credential: 'session', scopes: [], tokenId: null };
    }
    throw new GitAccessDenied(401, UNAUTHORIZED);
  }
}

/** `login:password` of an HTTP Basic header (null for any other scheme or a malformed one). */
function basicCredentials(authorization: string | undefined): { login: string; password: string } | null {
  const match = /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(authorization ?? '');
  if (!match) return null;
  const decoded = Buffer.from(match[1], 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  return colon === -1 ? { login: decoded, password: '' } : { login: decoded.slice(0, colon), password: decoded.slice(colon + 1) };
}
