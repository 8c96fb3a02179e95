import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { likePattern } from '../naming/naming';

export interface TopicRow {
  id: number;
  name: string;
  title: string;
  description: string | null;
  total_projects_count: number;
  non_private_projects_count: number;
}

/** Project topics with their project counts (every project, and the non-private ones), most used in non-private projects first. */
@Injectable()
export class TopicsRepository {
  constructor(private readonly dataSource: DataSource) {}

  list(filter: { search?: string; withoutProjects?: boolean }): Promise<TopicRow[]> {
    const conditions: string[] = [];
    const params: unknown[] = [];
    if (filter.search) {
      params.push(likePattern(filter.search));
      conditions.push(`(t.name ILIKE $${params.length} OR t.title ILIKE $${params.length})`);
    }
    if (filter.withoutProjects) conditions.push('COALESCE(c.total, 0) = 0');
    return this.query(conditions.length > 0 ? `WHERE ${conditions.join(' AND ')}` : '', params);
  }

  async findById(id: number): Promise<TopicRow | null> {
    const [row] = await this.query('WHERE t.id = $1', [id]);
    return row ?? null;
  }

  private query(where: string, params: unknown[]): Promise<TopicRow[]> {
    return this.dataSource.query(
      `WITH counts AS (
         SELECT lower(x) AS name, count(DISTINCT p.id)::int AS total, (count(DISTINCT p.id) FILTER (WHERE p.visibility <> 'private'))::int AS non_private
         FROM projects p, unnest(p.topics) AS x GROUP BY lower(x))
       SELECT t.id, t.name, t.title, t.description, COALESCE(c.total, 0) AS total_projects_count, COALESCE(c.non_private, 0) AS non_private_projects_count
       FROM topics t LEFT JOIN counts c ON c.name = lower(t.name)
       ${where}
       ORDER BY non_private_projects_count DESC, t.id DESC`,
      params,
    );
  }
}
