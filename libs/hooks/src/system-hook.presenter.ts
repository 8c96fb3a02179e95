import type { HookDeliveryEntity } from './entities/hook-delivery.entity';
import type { HookAlertStatus, SystemHookEntity } from './entities/system-hook.entity';

export interface SystemHookRecord {
  id: number;
  url: string;
  created_at: string;
  push_events: boolean;
  tag_push_events: boolean;
  merge_requests_events: boolean;
  repository_update_events: boolean;
  enable_ssl_verification: boolean;
  /** Delivery health (beyond the spec): `executable`, `temporarily_disabled` or `disabled`. */
  alert_status: HookAlertStatus;
  disabled_until: string | null;
  /** Consecutive failed delivery attempts. */
  recent_failures: number;
}

/** The system hook record of the API. The token is write-only: it has no field here, by design. */
export function presentSystemHook(hook: SystemHookEntity, now = new Date()): SystemHookRecord {
  // A temporary disabling that has run out is over: the next delivery is attempted.
  const expired = hook.alertStatus === 'temporarily_disabled' && (hook.disabledUntil === null || hook.disabledUntil <= now);
  return {
    id: hook.id,
    url: hook.url,
    created_at: hook.createdAt.toISOString(),
    push_events: hook.pushEvents,
    tag_push_events: hook.tagPushEvents,
    merge_requests_events: hook.mergeRequestsEvents,
    repository_update_events: hook.repositoryUpdateEvents,
    enable_ssl_verification: hook.enableSslVerification,
    alert_status: expired ? 'executable' : hook.alertStatus,
    disabled_until: hook.disabledUntil && !expired ? hook.disabledUntil.toISOString() : null,
    recent_failures: hook.recentFailures,
  };
}

export interface HookDeliveryRecord {
  id: number;
  /** The domain event delivered (null for a test delivery). */
  event_id: string | null;
  trigger: string;
  url: string;
  request_headers: Record<string, string>;
  request_data: unknown;
  response_status: number | null;
  response_headers: Record<string, string> | null;
  response_body: string | null;
  status: string;
  error: string | null;
  /** Seconds. */
  execution_duration: number;
  idempotency_key: string;
  webhook_uuid: string | null;
  attempt: number;
  created_at: string;
}

/** An entry of `GET /hooks/:id/events`: one attempt, secrets redacted. */
export function presentHookDelivery(row: HookDeliveryEntity): HookDeliveryRecord {
  const body = row.requestBody ?? row.event?.body ?? '';
  let requestData: unknown = body;
  try {
    requestData = JSON.parse(body);
  } catch {
    // Kept as text.
  }
  return {
    id: Number(row.id),
    event_id: row.eventId,
    trigger: row.trigger,
    url: row.url,
    request_headers: row.requestHeaders,
    request_data: requestData,
    response_status: row.responseStatus,
    response_headers: row.responseHeaders,
    response_body: row.responseBody,
    status: row.status,
    error: row.error,
    execution_duration: row.durationMs / 1000,
    idempotency_key: row.idempotencyKey,
    webhook_uuid: row.webhookUuid,
    attempt: row.attempt,
    created_at: row.createdAt.toISOString(),
  };
}
