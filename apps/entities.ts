import { ALERTING_ENTITIES } from '@app/alerting';
import { APPROVALS_ENTITIES } from '@app/approvals';
import { BADGES_ENTITIES } from '@app/badges';
import { CI_ENTITIES } from '@app/ci';
import { CUSTOM_ATTRIBUTE_ENTITIES } from '@app/custom-attributes';
import {
  EventEntity,
  ProjectedEventEntity,
  ProjectEventPositionEntity,
  ResourceIterationEventEntity,
  ResourceMilestoneEventEntity,
  ResourceStateEventEntity,
  ResourceWeightEventEntity,
} from '@app/events';
import { HOOKS_ENTITIES } from '@app/hooks';
import { AccessTokenEntity, OAuthTokenEntity, UserEntity } from '@app/identity';
import { EpicEntity, InternalIdEntity, IssueEntity, IterationEntity, LabelEntity, MergeRequestEntity, MilestoneEntity } from '@app/issues';
import { OutboxEventEntity } from '@app/messaging';
import { NOTES_ENTITIES } from '@app/notes';
import { MemberEntity, NamespaceEntity, ProjectEntity, ProjectStarEntity, ProjectStatisticsEntity, TopicEntity } from '@app/namespaces';
import { PROJECT_TRANSFER_ENTITIES } from '@app/project-transfer';
import { PROTECTED_BRANCH_ENTITIES, REPOSITORY_ENTITIES } from '@app/repository';
import { SETTINGS_ENTITIES } from '@app/settings';
import { SNIPPETS_ENTITIES } from '@app/snippets';
import { VULNERABILITIES_ENTITIES } from '@app/vulnerabilities';

/**
 * Every entity of the data source, registered here by the composition root (libs/database names
 * no domain code). A new entity is added here and gets a generated migration.
 */
export const ENTITIES = [
  UserEntity,
  AccessTokenEntity,
  OAuthTokenEntity,
  NamespaceEntity,
  ProjectEntity,
  MemberEntity,
  ProjectStarEntity,
  ProjectStatisticsEntity,
  TopicEntity,
  OutboxEventEntity,
  InternalIdEntity,
  MilestoneEntity,
  IterationEntity,
  IssueEntity,
  MergeRequestEntity,
  EventEntity,
  ProjectedEventEntity,
  ProjectEventPositionEntity,
  ResourceMilestoneEventEntity,
  ResourceStateEventEntity,
  ResourceIterationEventEntity,
  ResourceWeightEventEntity,
  ...ALERTING_ENTITIES,
  ...SETTINGS_ENTITIES,
  ...CUSTOM_ATTRIBUTE_ENTITIES,
  ...HOOKS_ENTITIES,
  ...PROTECTED_BRANCH_ENTITIES,
  ...REPOSITORY_ENTITIES,
  ...BADGES_ENTITIES,
  EpicEntity,
  LabelEntity,
  ...SNIPPETS_ENTITIES,
  ...NOTES_ENTITIES,
  ...CI_ENTITIES,
  ...VULNERABILITIES_ENTITIES,
  ...PROJECT_TRANSFER_ENTITIES,
  ...APPROVALS_ENTITIES,
];
