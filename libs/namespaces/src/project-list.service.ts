import { Injectable } from '@nestjs/common';
import { HeaderSink, isKeysetPaginationRequested, paginateKeyset, paginateOffset, PaginationRequest, PROJECT_LIST_MAX_OFFSET } from '@app/api';
import { AppConfig } from '@app/config';
import { CustomAttributeFilters } from '@app/custom-attributes';
import { AccessUser } from './access/access-policy';
import { ListProjectsDto, ProjectListBaseDto } from './dto/project.dto';
import { ProjectViewsService } from './presenters/project-views.service';
import {
  PROJECT_KEYSET_ORDER_EXPRESSIONS,
  PROJECT_KEYSET_ORDER_VALUES,
  ProjectListFilter,
  ProjectsRepository,
  ProjectWithNamespace,
} from './repositories/projects.repository';

/** The project list filters of a request (`GET /projects`, `/groups/:id/projects`, `/users/:id/projects`). */
export function projectListFilter(dto: ProjectListBaseDto & Partial<ListProjectsDto>, viewer: AccessUser | null = null): ProjectListFilter {
  return {
    search: dto.search,
    searchNamespaces: dto.search_namespaces,
    owned: dto.owned,
    membership: dto.membership,
    minAccessLevel: dto.min_access_level,
    visibility: dto.visibility,
    archived: dto.archived,
    topics: dto.topic,
    topicId: dto.topic_id,
    starred: dto.starred,
    imported: dto.imported,
    checksumFailed: dto.repository_checksum_failed || dto.wiki_checksum_failed || undefined,
    repositoryStorage: viewer?.isAdmin ? dto.repository_storage : undefined,
    withIssuesEnabled: dto.with_issues_enabled,
    withMergeRequestsEnabled: dto.with_merge_requests_enabled,
    withProgrammingLanguage: dto.with_programming_language,
    idAfter: dto.id_after,
    idBefore: dto.id_before,
    lastActivityAfter: dto.last_activity_after,
    lastActivityBefore: dto.last_activity_before,
    orderBy: dto.order_by,
    sort: dto.sort,
  };
}

export interface ProjectListRequest {
  filter: ProjectListFilter;
  viewer: AccessUser | null;
  dto: ProjectListBaseDto & Partial<Pick<ListProjectsDto, 'custom_attributes'>>;
  /** `order_by` values keyset pagination accepts here (`GET /projects`: only `id`). */
  keysetOrders: readonly string[];
  keysetDefaultOrder: string;
  /** The result is known to be empty (e.g. a private profile). */
  empty?: boolean;
}

/**
 * Runs a project list: filters, custom attribute filters (administrators), keyset
 * (`pagination=keyset`) or offset pagination capped at 50,000 records, and the simple view
 * for anonymous callers or `simple=true`, else the full view with `permissions`.
 */
@Injectable()
export class ProjectListService {
  constructor(
    private readonly config: AppConfig,
    private readonly projects: ProjectsRepository,
    private readonly views: ProjectViewsService,
    private readonly customAttributes: CustomAttributeFilters,
  ) {}

  async list(list: ProjectListRequest, request: PaginationRequest, reply: HeaderSink): Promise<Record<string, unknown>[]> {
    const { viewer, dto } = list;
    if (list.filter.withProgrammingLanguage !== undefined) await this.projects.checkLanguagesAvailable();
    const qb = this.projects.listQuery(list.filter, viewer);
    this.customAttributes.filter(qb, 'project', 'p', dto.custom_attributes, viewer);
    if (list.empty) qb.andWhere('false');
    const externalUrl = this.config.http.externalUrl;
    const rows = (
      isKeysetPaginationRequested(request.query)
        ? await paginateKeyset(qb, request, reply, {
            externalUrl,
            keyset: { allowedOrderBy: list.keysetOrders, defaultOrderBy: list.keysetDefaultOrder, defaultSort: 'desc' },
            columns: {
              idExpression: 'p.id',
              id: (p) => p.id,
              orderExpressions: PROJECT_KEYSET_ORDER_EXPRESSIONS,
              orderValues: PROJECT_KEYSET_ORDER_VALUES,
            },
          })
        : await paginateOffset(qb, request, reply, { externalUrl, maxOffset: PROJECT_LIST_MAX_OFFSET, resourceType: 'Project' })
    ) as ProjectWithNamespace[];
    const simple = !viewer || dto.simple === true;
    const items = await this.views.present(rows, viewer, { view: simple ? 'simple' : 'full', withPermissions: true, statistics: dto.statistics });
    return this.customAttributes.attach('project', items, viewer, dto.with_custom_attributes);
  }
}
