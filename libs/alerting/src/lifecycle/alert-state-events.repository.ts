import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { AlertStatus } from '../engine/alert-severity';
import { AlertStateEventEntity } from '../entities/alert-state-event.entity';

/** A status change of an alert, as its state event records it. */
export interface AlertStateChange {
  alertId: number;
  /** Null when a recovery payload resolved the alert. */
  userId: number | null;
  state: AlertStatus;
  previousState: AlertStatus | null;
  occurredAt: Date;
}

/** The alerts' state events (`alert_state_events`). */
@Injectable()
export class AlertStateEventsRepository {
  constructor(private readonly dataSource: DataSource) {}

  /**
   * Records a change once per domain event (a redelivery is a no-op); nothing when the alert
   * no longer exists (its project was deleted). True when a row was written.
   */
  async record(sourceEventId: string, change: AlertStateChange): Promise<boolean> {
    const rows: unknown[] = await this.dataSource.query(
      `INSERT INTO alert_state_events (alert_id, user_id, state, previous_state, source_event_id, created_at)
       SELECT a.id, $2, $3, $4, $5, $6 FROM alerts a WHERE a.id = $1
       ON CONFLICT (source_event_id) DO NOTHING
       RETURNING id`,
      [change.alertId, change.userId, change.state, change.previousState, sourceEventId, change.occurredAt],
    );
    return rows.length === 1;
  }

  /** The state events of an alert, oldest first. */
  listForAlert(alertId: number): Promise<AlertStateEventEntity[]> {
    return this.dataSource.getRepository(AlertStateEventEntity).find({ where: { alertId }, order: { id: 'ASC' } });
  }
}
