import { presentUserSummary } from '@app/identity';
import type { ProjectStarEntity } from '../entities/project-star.entity';

/** A starrers list item: `{starred_since, user}` (GitLab's `UserStarsProject`). */
export function presentStarrer(star: ProjectStarEntity, externalUrl: string): Record<string, unknown> {
  return { starred_since: star.createdAt.toISOString(), user: presentUserSummary(star.user!, externalUrl) };
}
