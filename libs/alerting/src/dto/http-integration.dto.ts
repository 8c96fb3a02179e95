import { Required, ToBoolean } from '@app/api';
import { IsBoolean, IsIn, IsOptional, IsString, MaxLength, MinLength } from 'class-validator';
import { ALERT_INTEGRATION_TYPES, type AlertIntegrationType } from '../entities/alert-http-integration.entity';

export class CreateHttpIntegrationDto {
  @Required()
  @IsString()
  @MinLength(1)
  @MaxLength(255)
  name: string;

  /** `http` (default: the generic payload) or `prometheus` (Alertmanager's webhook; one per project). Fixed once created. */
  @IsOptional()
  @IsIn(ALERT_INTEGRATION_TYPES)
  type?: AlertIntegrationType;

  @IsOptional()
  @ToBoolean()
  @IsBoolean()
  active?: boolean;

  /** A JSON object, as a JSON string (or the object itself). Checked by the use case. */
  @IsOptional()
  payload_example?: unknown;

  /** `[{field_name, path, type, label}]` (PREMIUM). Checked by the use case. */
  @IsOptional()
  payload_attribute_mappings?: unknown;

  @IsOptional()
  @ToBoolean()
  @IsBoolean()
  create_incident?: boolean;

  @IsOptional()
  @ToBoolean()
  @IsBoolean()
  auto_close_incident?: boolean;
}

export class UpdateHttpIntegrationDto {
  @IsOptional()
  @IsString()
  @MinLength(1)
  @MaxLength(255)
  name?: string;

  /** Accepted when unchanged: an integration's type is fixed once created. */
  @IsOptional()
  @IsIn(ALERT_INTEGRATION_TYPES)
  type?: AlertIntegrationType;

  @IsOptional()
  @ToBoolean()
  @IsBoolean()
  active?: boolean;

  @IsOptional()
  payload_example?: unknown;

  @IsOptional()
  payload_attribute_mappings?: unknown;

  @IsOptional()
  @ToBoolean()
  @IsBoolean()
  create_incident?: boolean;

  @IsOptional()
  @ToBoolean()
  @IsBoolean()
  auto_close_incident?: boolean;
}
