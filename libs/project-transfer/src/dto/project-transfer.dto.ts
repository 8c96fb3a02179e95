import { IsBoolean, IsIn, IsObject, IsOptional, IsString, MaxLength } from 'class-validator';
import { ToBoolean } from '@app/api';

export class ExportProjectDto {
  @IsOptional()
  @IsString()
  @MaxLength(2000)
  description?: string;

  /** `upload[url]`, `upload[http_method]` (`PUT` default or `POST`). */
  @IsOptional()
  @IsObject()
  upload?: { url?: unknown; http_method?: unknown };
}

export class RemoteImportDto {
  @IsString()
  @MaxLength(2048)
  url: string;

  @IsString()
  @MaxLength(255)
  path: string;

  @IsOptional()
  @IsString()
  @MaxLength(2048)
  namespace?: string;

  @IsOptional()
  @IsString()
  @MaxLength(255)
  name?: string;

  @IsOptional()
  @ToBoolean()
  @IsBoolean()
  overwrite?: boolean;

  @IsOptional()
  @IsObject()
  override_params?: Record<string, unknown>;
}

export class RemoteImportS3Dto {
  @IsString()
  @MaxLength(255)
  path: string;

  @IsString()
  @MaxLength(255)
  region: string;

  @IsString()
  @MaxLength(255)
  bucket_name: string;

  @IsString()
  @MaxLength(1024)
  file_key: string;

  @IsString()
  @MaxLength(255)
  access_key_id: string;

  @IsString()
  @MaxLength(255)
  secret_access_key: string;

  @IsOptional()
  @IsString()
  @MaxLength(2048)
  namespace?: string;

  @IsOptional()
  @IsString()
  @MaxLength(255)
  name?: string;
}

export const UPLOAD_METHODS = ['PUT', 'POST'] as const;
export const isUploadMethod = (value: unknown): value is (typeof UPLOAD_METHODS)[number] =>
  IsIn !== undefined && (UPLOAD_METHODS as readonly unknown[]).includes(value);
