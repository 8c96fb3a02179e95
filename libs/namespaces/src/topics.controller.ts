import { Controller, Get, Param, Query, Req, Res } from '@nestjs/common';
import { DomainError, paginateArray, PublicRead } from '@app/api';
import { AppConfig } from '@app/config';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { DataSource } from 'typeorm';
import { ListTopicsDto } from './dto/project.dto';
import { likePattern } from './naming';

interface TopicRow {
  id: number;
  name: string;
  title: string;
  description: string | null;
  total_projects_count: number;
  non_private_projects_count: number;
}

/**
 * Project topics (GitLab's `GET /topics`, `GET /topics/:id`): every topic name ever given to a
 * project, most used in non-private projects first. `topic_id` of `GET /projects` refers to these ids.
 */
@Controller()
export class TopicsController {
  constructor(
    private readonly config: AppConfig,
    private readonly dataSource: DataSource,
  ) {}

  @Get('topics')
  @PublicRead()
  async list(@Query() dto: ListTopicsDto, @Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply): Promise<Record<string, unknown>[]> {
    const conditions: string[] = [];
    const params: unknown[] = [];
    if (dto.search) {
      params.push(likePattern(dto.search));
      conditions.push(`(t.name ILIKE $${params.length} OR t.title ILIKE $${params.length})`);
    }
    if (dto.without_projects) conditions.push('COALESCE(c.total, 0) = 0');
    const rows = await this.query(conditions.length > 0 ? `WHERE ${conditions.join(' AND ')}` : '', params);
    return paginateArray(rows, request, reply, { externalUrl: this.config.http.externalUrl }).map(presentTopic);
  }

  @Get('topics/:id')
  @PublicRead()
  async get(@Param('id') id: string): Promise<Record<string, unknown>> {
    if (!/^\d+$/.test(id) || !Number.isSafeInteger(Number(id))) throw DomainError.notFound('Topic');
    const [row] = await this.query('WHERE t.id = $1', [Number(id)]);
    if (!row) throw DomainError.notFound('Topic');
    return presentTopic(row);
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

function presentTopic(row: TopicRow): Record<string, unknown> {
  return {
    id: row.id,
    name: row.name,
    title: row.title,
    description: row.description,
    total_projects_count: row.total_projects_count,
    organization_id: 1,
    avatar_url: null,
  };
}
