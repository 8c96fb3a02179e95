import { DomainError, idParam, paginateArray, PublicRead } from '@app/api';
import { Controller, Get, Param, Query, Req, Res } from '@nestjs/common';
import { AppConfig } from '@app/config';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ListTopicsDto } from './dto/project.dto';
import { TopicRow, TopicsRepository } from './repositories/topics.repository';

/**
 * Project topics (GitLab's `GET /topics`, `GET /topics/:id`): every topic name ever given to a
 * project, most used in non-private projects first. `topic_id` of `GET /projects` refers to these ids.
 */
@Controller()
export class TopicsController {
  constructor(
    private readonly config: AppConfig,
    private readonly topics: TopicsRepository,
  ) {}

  @Get('topics')
  @PublicRead()
  async list(@Query() dto: ListTopicsDto, @Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply): Promise<Record<string, unknown>[]> {
    const rows = await this.topics.list({ search: dto.search, withoutProjects: dto.without_projects });
    return paginateArray(rows, request, reply, { externalUrl: this.config.http.externalUrl }).map(presentTopic);
  }

  @Get('topics/:id')
  @PublicRead()
  async get(@Param('id') id: string): Promise<Record<string, unknown>> {
    const row = await this.topics.findById(idParam(id, 'Topic'));
    if (!row) throw DomainError.notFound('Topic');
    return presentTopic(row);
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
