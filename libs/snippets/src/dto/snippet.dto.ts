import { Type } from 'class-transformer';
import { ArrayMaxSize, IsArray, IsIn, IsOptional, IsString, MaxLength, ValidateNested } from 'class-validator';
import { IsOptionalNotNull, Required } from '@app/api';
import { VISIBILITIES, Visibility } from '@app/namespaces';

export const SNIPPET_FILES_MAX = 10;

export class SnippetFileDto {
  @Required() @IsString() @MaxLength(255) file_path: string;
  @IsOptionalNotNull() @IsString() content?: string;
}

/** `PUT` files: what to do with each file (GitLab's `action`). */
export class SnippetFileActionDto extends SnippetFileDto {
  @Required() @IsIn(['create', 'update', 'delete', 'move']) action: 'create' | 'update' | 'delete' | 'move';
  @IsOptionalNotNull() @IsString() @MaxLength(255) previous_path?: string;
}

/** `POST /projects/:id/snippets`: `files`, or the single-file `file_name` with `content`. */
export class CreateSnippetDto {
  @Required() @IsString() @MaxLength(255) title: string;
  @IsOptional() @IsString() description?: string;
  @IsOptionalNotNull() @IsIn(VISIBILITIES) visibility?: Visibility;
  @IsOptionalNotNull() @IsString() @MaxLength(255) file_name?: string;
  @IsOptionalNotNull() @IsString() content?: string;
  @IsOptionalNotNull() @IsArray() @ArrayMaxSize(SNIPPET_FILES_MAX) @ValidateNested({ each: true }) @Type(() => SnippetFileDto) files?: SnippetFileDto[];
}

export class UpdateSnippetDto {
  @IsOptionalNotNull() @IsString() @MaxLength(255) title?: string;
  @IsOptional() @IsString() description?: string;
  @IsOptionalNotNull() @IsIn(VISIBILITIES) visibility?: Visibility;
  @IsOptionalNotNull() @IsString() @MaxLength(255) file_name?: string;
  @IsOptionalNotNull() @IsString() content?: string;
  @IsOptionalNotNull()
  @IsArray()
  @ArrayMaxSize(SNIPPET_FILES_MAX)
  @ValidateNested({ each: true })
  @Type(() => SnippetFileActionDto)
  files?: SnippetFileActionDto[];
}
