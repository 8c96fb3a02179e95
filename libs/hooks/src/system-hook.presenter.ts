import type { SystemHookEntity } from './entities/system-hook.entity';

export interface SystemHookRecord {
  id: number;
  url: string;
  created_at: string;
  push_events: boolean;
  tag_push_events: boolean;
  merge_requests_events: boolean;
  repository_update_events: boolean;
  enable_ssl_verification: boolean;
}

/** The system hook record of the API. The token is write-only: it has no field here, by design. */
export function presentSystemHook(hook: SystemHookEntity): SystemHookRecord {
  return {
    id: hook.id,
    url: hook.url,
    created_at: hook.createdAt.toISOString(),
    push_events: hook.pushEvents,
    tag_push_events: hook.tagPushEvents,
    merge_requests_events: hook.mergeRequestsEvents,
    repository_update_events: hook.repositoryUpdateEvents,
    enable_ssl_verification: hook.enableSslVerification,
  };
}
