import { ALERTING_ENTITIES } from '@app/alerting/entities';
import { EventEntity, ProjectedEventEntity, ResourceIterationEventEntity, ResourceMilestoneEventEntity, ResourceStateEventEntity, ResourceWeightEventEntity } from '@app/events/entities';
import { HOOKS_ENTITIES } from '@app/hooks/entities';
import { AccessTokenEntity, OAuthTokenEntity, UserEntity } from '@app/identity/entities';
import { OutboxEventEntity } from '@app/messaging/outbox-event.entity';
import { InternalIdEntity, IssueEntity, IterationEntity, MergeRequestEntity, MilestoneEntity } from '@app/issues/entities';
import { MemberEntity, NamespaceEntity, ProjectEntity } from '@app/namespaces/entities';
import { SETTINGS_ENTITIES } from '@app/settings/entities';

/** Every entity of the data source. A new entity is added here and gets a generated migration. */
export const ENTITIES = [UserEntity, AccessTokenEntity, OAuthTokenEntity, NamespaceEntity, ProjectEntity, MemberEntity, OutboxEventEntity, InternalIdEntity, MilestoneEntity, IterationEntity, IssueEntity, MergeRequestEntity, EventEntity, ProjectedEventEntity, ResourceMilestoneEventEntity, ResourceStateEventEntity, ResourceIterationEventEntity, ResourceWeightEventEntity, ...ALERTING_ENTITIES, ...SETTINGS_ENTITIES, ...HOOKS_ENTITIES];
