import { IsBoolean, IsIn, IsOptional, IsString } from 'class-validator';
import { IsOptionalNotNull, Required, ToBoolean } from '@app/api';

/** `POST …/notes`. The body's length is checked by the use case (GitLab's 1,000,000 characters). */
export class CreateNoteDto {
  @Required() @IsString() body: string;
  /** Issues and epics; `internal` is its newer name. */
  @IsOptionalNotNull() @ToBoolean() @IsBoolean() confidential?: boolean;
  @IsOptionalNotNull() @ToBoolean() @IsBoolean() internal?: boolean;
  /** Administrators and owners only (ignored for others). */
  @IsOptionalNotNull() @IsString() created_at?: string;
  /** Merge requests: the head the caller saw, needed by `/merge` (`merge_request_diff_head_sha` is GitLab's newer name). */
  @IsOptional() @IsString() merge_request_diff_sha?: string;
  @IsOptional() @IsString() merge_request_diff_head_sha?: string;
}

/** `PUT …/issues/:iid/notes/:note_id`: `body` optional. */
export class UpdateNoteDto {
  @IsOptionalNotNull() @IsString() body?: string;
  /** Deprecated and removed in 16.0: accepted and ignored. */
  @IsOptionalNotNull() @ToBoolean() @IsBoolean() confidential?: boolean;
}

/** `PUT` on merge request, snippet and epic notes: `body` required. */
export class UpdateNoteRequiredBodyDto {
  @Required() @IsString() body: string;
  @IsOptionalNotNull() @ToBoolean() @IsBoolean() confidential?: boolean;
}

/** `GET …/notes`: newest first by creation by default; `pagination=keyset` pages by the same order. */
export class ListNotesDto {
  @IsOptional() @IsIn(['asc', 'desc'], { message: 'does not have a valid value' }) sort?: 'asc' | 'desc';
  @IsOptional() @IsIn(['created_at', 'updated_at'], { message: 'does not have a valid value' }) order_by?: 'created_at' | 'updated_at';
}

/** `POST …/award_emoji`: the emoji name, without colons. */
export class AwardEmojiDto {
  @Required() @IsString() name: string;
}

/** `POST …/discussions` and `POST …/discussions/:discussion_id/notes`. */
export class CreateDiscussionDto {
  @Required() @IsString() body: string;
  /** Administrators and owners only (ignored for others), as on notes. */
  @IsOptionalNotNull() @IsString() created_at?: string;
  /** Merge requests: the head the caller saw, for `/merge`. */
  @IsOptional() @IsString() merge_request_diff_head_sha?: string;
}

/** `PUT …/discussions/:discussion_id/notes/:note_id`: exactly one of them (`resolved`: merge request threads). */
export class UpdateDiscussionNoteDto {
  @IsOptionalNotNull() @IsString() body?: string;
  @IsOptionalNotNull() @ToBoolean() @IsBoolean() resolved?: boolean;
}

/** `PUT …/merge_requests/:merge_request_iid/discussions/:discussion_id`. */
export class ResolveDiscussionDto {
  @Required() @ToBoolean() @IsBoolean() resolved: boolean;
}
