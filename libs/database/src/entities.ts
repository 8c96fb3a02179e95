import { ALERTING_ENTITIES } from '@app/alerting/entities';
import { BADGES_ENTITIES } from '@app/badges/entities';
import { CI_ENTITIES } from '@app/ci/entities';
import { EventEntity, ProjectedEventEntity, ProjectEventPositionEntity, ResourceIterationEventEntity, ResourceMilestoneEventEntity, ResourceStateEventEntity, ResourceWeightEventEntity } from '@app/events/entities';
import { HOOKS_ENTITIES } from '@app/hooks/entities';
import { AccessTokenEntity, OAuthTokenEntity, UserEntity } from '@app/identity/entities';
import { OutboxEventEntity } from '@app/messaging/outbox-event.entity';
import { InternalIdEntity, IssueEntity, IterationEntity, MergeRequestEntity, MilestoneEntity } from '@app/issues/entities';
import { MemberEntity, NamespaceEntity, ProjectEntity, ProjectStarEntity, ProjectStatisticsEntity, TopicEntity } from '@app/namespaces/entities';
import { REPOSITORY_ENTITIES } from '@app/repository/entities';
import { PROTECTED_BRANCH_ENTITIES } from '@app/repository/protected-branches/entities';
import { SETTINGS_ENTITIES } from '@app/settings/entities';

/** Every entity of the data source. A new entity is added here and gets a generated migration. */
export const ENTITIES = [UserEntity, AccessTokenEntity, OAuthTokenEntity, NamespaceEntity, ProjectEntity, MemberEntity, ProjectStarEntity, ProjectStatisticsEntity, TopicEntity, OutboxEventEntity, InternalIdEntity, MilestoneEntity, IterationEntity, IssueEntity, MergeRequestEntity, EventEntity, ProjectedEventEntity, ProjectEventPositionEntity, ResourceMilestoneEventEntity, ResourceStateEventEntity, ResourceIterationEventEntity, ResourceWeightEventEntity, ...ALERTING_ENTITIES, ...SETTINGS_ENTITIES, ...HOOKS_ENTITIES, ...PROTECTED_BRANCH_ENTITIES, ...REPOSITORY_ENTITIES, ...BADGES_ENTITIES, ...CI_ENTITIES];
