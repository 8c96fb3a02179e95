// libs/api: folders import only the folders below them, from the top down:
//   openapi/ -> http/ -> auth/, pagination/, dto/ -> params/ -> errors/
// Each folder's index.ts gathers its files; this index composes them and is imported by none.
// Check: `node scripts/folder-cycles.mjs api`.
//
// Other libs, the apps and the tests use these names only.
export {
  ACCESS_RESOLVER,
  AdminOnly,
  Auth,
  AUTHENTICATOR,
  AuthGuard,
  CurrentGroup,
  CurrentPrincipal,
  CurrentProject,
  extractCredentials,
  GroupAccess,
  JOB_TOKEN_GIT_USER,
  JOB_TOKEN_RESOLVER,
  ProjectAccess,
  PublicRead,
  SCOPES,
  SESSION_COOKIE,
  SkipAuth,
  tierAtLeast,
} from './auth';
export type {
  AccessResolver,
  AuthenticatedRequest,
  Authenticator,
  CredentialKind,
  Credentials,
  JobTokenIdentity,
  JobTokenResolver,
  Principal,
  PrincipalUser,
  ResourceAccess,
} from './auth';
export {
  DbInt,
  EmptyToNull,
  IsValidEmail,
  isValidEmail,
  NullToEmpty,
  parseBoolean,
  ToBoolean,
  toBooleanTransform,
  ToInt,
  ToIntArray,
  ToStringArray,
} from './dto';
export { DomainError, ErrorCode, internalErrorResponse, isClientDisconnect } from './errors';
export type { ValidationMessages } from './errors';
export {
  AcceptsContentTypes,
  AcceptsTextPlain,
  assertDeleteRoutesDeclareLastModified,
  assertNotModifiedAfter,
  assertUnmodifiedSince,
  configureHttpApp,
  createFastifyAdapter,
  Embedded,
  getRequestId,
  IsOptionalNotNull,
  JSON_CONTENT_TYPE,
  LastModified,
  listDeleteRoutes,
  OwnContentEncoding,
  readIfUnmodifiedSince,
  recordedRoutes,
  Required,
  rowChangedAt,
  sendDomainError,
  sendExactJsonContentType,
  StreamsMultipart,
} from './http';
export type { ApiRouteConfig, LastModifiedRequest, LastModifiedResolver, ProviderLookup } from './http';
export {
  applyKeysetPaginationHeaders,
  applyOffsetPaginationHeaders,
  encodeKeysetCursor,
  isKeysetPaginationRequested,
  nextKeysetPosition,
  paginateArray,
  paginateKeyset,
  paginateOffset,
  paginateQuery,
  Paginator,
  parseKeysetPagination,
  parseOffsetPagination,
  PROJECT_LIST_MAX_OFFSET,
  TOTAL_COUNT_LIMIT,
} from './pagination';
export type {
  HeaderSink,
  KeysetListing,
  KeysetOptions,
  KeysetPagination,
  KeysetPosition,
  OffsetPageInfo,
  OffsetPagination,
  PaginationRequest,
} from './pagination';
export { dbIntOrNull, idParam, INT32_MAX, intParam, isDbInt, parseIdOrName, parseProjectOrGroupRef, ProjectRefPipe } from './params';
export type { ProjectOrGroupRef } from './params';
export { openApiPath, registerOpenApiRoutes } from './openapi';
