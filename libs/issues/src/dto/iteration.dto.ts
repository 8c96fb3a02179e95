import { IsIn, IsISO8601, IsOptional, IsString, MaxLength } from 'class-validator';
import { Required } from '@app/api';

export class CreateIterationDto {
  @IsOptional() @IsString() @MaxLength(255) title?: string;
  @IsOptional() @IsString() description?: string;
  @Required() @IsISO8601({ strict: true }) start_date: string;
  @Required() @IsISO8601({ strict: true }) due_date: string;
}

export class ListIterationsDto {
  @IsOptional() @IsIn(['opened', 'upcoming', 'current', 'closed', 'all']) state?: 'opened' | 'upcoming' | 'current' | 'closed' | 'all';
  @IsOptional() @IsString() search?: string;
}
