export * from './alert-http-integration.entity';
export * from './alert-iid-counter.entity';
export * from './alert-note.entity';
export * from './alert-state-event.entity';
export * from './alert-unmatched-recovery.entity';
export * from './alert.entity';
export * from './processed-alert-event.entity';

import { AlertHttpIntegrationEntity } from './alert-http-integration.entity';
import { AlertIidCounterEntity } from './alert-iid-counter.entity';
import { AlertNoteEntity } from './alert-note.entity';
import { AlertStateEventEntity } from './alert-state-event.entity';
import { AlertUnmatchedRecoveryEntity } from './alert-unmatched-recovery.entity';
import { AlertEntity } from './alert.entity';
import { ProcessedAlertEventEntity } from './processed-alert-event.entity';

/** Every entity of the alerting library (listed in the data source's ENTITIES). */
export const ALERTING_ENTITIES = [
  AlertHttpIntegrationEntity,
  AlertEntity,
  AlertIidCounterEntity,
  AlertNoteEntity,
  AlertUnmatchedRecoveryEntity,
  ProcessedAlertEventEntity,
  AlertStateEventEntity,
];
