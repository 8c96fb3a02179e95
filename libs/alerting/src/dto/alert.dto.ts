import { DbInt, ToInt, ToStringArray } from '@app/api';
import { ArrayMaxSize, IsArray, IsIn, IsInt, IsOptional, IsString, Max, MaxLength, Min } from 'class-validator';
import { Transform } from 'class-transformer';
import { ALERT_SEVERITIES, ALERT_STATUSES, AlertSeverity, AlertStatus } from '../engine/alert-severity';

export const ALERT_ORDER_BY = ['id', 'started_at', 'ended_at', 'created_at', 'updated_at', 'event_count', 'severity', 'status'] as const;
export type AlertOrderBy = (typeof ALERT_ORDER_BY)[number];

export class ListAlertsDto {
  /** One status, several (`status[]=a&status[]=b`), or a comma-separated list. */
  @IsOptional()
  @ToStringArray()
  @IsArray()
  @IsIn(ALERT_STATUSES, { each: true })
  status?: AlertStatus[];

  @IsOptional()
  @ToStringArray()
  @IsArray()
  @IsIn(ALERT_SEVERITIES, { each: true })
  severity?: AlertSeverity[];

  @IsOptional()
  @IsString()
  @MaxLength(255)
  search?: string;

  @IsOptional()
  @IsString()
  assignee_username?: string;

  @IsOptional()
  @IsIn(ALERT_ORDER_BY)
  order_by?: AlertOrderBy;

  @IsOptional()
  @IsIn(['asc', 'desc'])
  sort?: 'asc' | 'desc';
}

const toIntArray = ({ value }: { value: unknown }): unknown => {
  const list = typeof value === 'string' ? (value.trim() === '' ? [] : value.split(',')) : value;
  if (!Array.isArray(list)) return value;
  return list.map((item) => (typeof item === 'string' && /^\d+$/.test(item.trim()) ? Number(item) : item));
};

export class UpdateAlertDto {
  @IsOptional()
  @IsIn(ALERT_STATUSES)
  status?: AlertStatus;

  /** Replaces the assignees; an empty list (or `0`) removes them all. */
  @IsOptional()
  @Transform(toIntArray)
  @IsArray()
  @ArrayMaxSize(100)
  @DbInt({ each: true })
  assignee_ids?: number[];
}

/** `GET …/alerts/started_per_hour`: the list's filters and the number of hours (1–168, default 24). */
export class AlertsPerHourDto extends ListAlertsDto {
  @IsOptional()
  @ToInt()
  @IsInt()
  @Min(1)
  @Max(168)
  hours?: number;
}
