/** Kinds of credential a request can carry. */
export type CredentialKind = 'personal' | 'impersonation' | 'project' | 'group' | 'oauth' | 'job' | 'session';

export const SCOPES = [
  'api',
  'read_api',
  'read_user',
  'sudo',
  'read_repository',
  'write_repository',
  'admin_mode',
  'create_runner',
  'k8s_proxy',
  'ai_features',
] as const;
export type Scope = (typeof SCOPES)[number];

/** The user a request acts as, with what its credential allows. */
export interface PrincipalUser {
  id: number;
  username: string;
  isAdmin: boolean;
  external: boolean;
  state: string;
  userType: string;
}

export interface Principal {
  user: PrincipalUser;
  credential: CredentialKind;
  /** Scopes of the credential; a session cookie has every scope. */
  scopes: readonly string[];
  tokenId: number | null;
  /** The administrator who used sudo, when the request runs as another user. */
  sudoFrom?: PrincipalUser;
}

/** Raw credentials found on a request (at most one of each). */
export interface Credentials {
  privateToken?: string;
  bearer?: string;
  accessToken?: string;
  jobToken?: string;
  session?: string;
  /** `X-CSRF-Token`: a session cookie authenticates a write only with the session's CSRF token. */
  csrfToken?: string;
}

export const AUTHENTICATOR = Symbol('AUTHENTICATOR');

/** Turns credentials into a principal; implemented by the identity library. */
export interface Authenticator {
  /** Resolves a token; null when it is unknown, revoked, expired or its user cannot sign in. */
  authenticate(credentials: Credentials, options: { jobTokenAllowed: boolean; safeMethod: boolean }): Promise<Principal | null>;
  /** Finds an active user by id or (case-insensitive) username, for sudo. */
  findSudoUser(identifier: string): Promise<PrincipalUser | null>;
}
