import { IsIn, IsOptional, Matches } from 'class-validator';
import { EVENT_ACTIONS, EVENT_TARGET_TYPES, EventAction, EventTargetFilter } from '../projection/event-projection';

const DATE = /^\d{4}-\d{2}-\d{2}$/;

export class ListEventsDto {
  @IsOptional() @IsIn(EVENT_ACTIONS, { message: 'does not have a valid value' }) action?: EventAction;
  @IsOptional() @IsIn(Object.keys(EVENT_TARGET_TYPES), { message: 'does not have a valid value' }) target_type?: EventTargetFilter;
  /** Exclusive: events of days before this date. */
  @IsOptional() @Matches(DATE, { message: 'is invalid' }) before?: string;
  /** Exclusive: events of days after this date. */
  @IsOptional() @Matches(DATE, { message: 'is invalid' }) after?: string;
  @IsOptional() @IsIn(['asc', 'desc'], { message: 'does not have a valid value' }) sort?: 'asc' | 'desc';
}

export class ListCurrentUserEventsDto extends ListEventsDto {
  /** `all`: events of every project the user is a member of, not only the user's own. */
  @IsOptional() @IsIn(['all'], { message: 'does not have a valid value' }) scope?: 'all';
}
