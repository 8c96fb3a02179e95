import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import type { Pusher } from '../events/repository.events';

/** The statements of recording pushes (`RecordPushUseCase`). */
@Injectable()
export class PushesRepository {
  constructor(private readonly dataSource: DataSource) {}

  /** The user who pushed, as push events show them (blank fields when the user is gone). */
  async pusher(userId: number, manager: EntityManager = this.dataSource.manager): Promise<Pusher> {
    const [row] = (await manager.query('SELECT id, name, username, email FROM users WHERE id = $1', [userId])) as Pusher[];
    return row ?? { id: userId, name: '', username: '', email: '' };
  }

  /** The project's `last_activity_at` is now, and its default branch this one. */
  async recordActivity(tx: EntityManager, projectId: number, defaultBranch: string | null): Promise<void> {
    await tx.query('UPDATE projects SET last_activity_at = now(), default_branch = $2 WHERE id = $1', [projectId, defaultBranch]);
  }
}
