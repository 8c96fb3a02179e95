import { Injectable } from '@nestjs/common';
import { AppConfig } from '@app/config';
import { DataSource } from 'typeorm';

/** Username of the user that authors incidents and system notes of the alert engine. */
export const ALERT_BOT_USERNAME = 'alert-bot';
export const ALERT_BOT_NAME = 'Alert Bot';
/** Usernames tried after `alert-bot` if a person already holds it: `alert-bot1` ... */
const MAX_SUFFIX = 20;

/**
 * The alert bot: a bot user (no password, no token, cannot sign in) created once per
 * instance, on first need. Concurrent engines race on the username's unique index and all
 * end up with the same row. A row is the bot only if it is a bot user with the bot's
 * no-reply address: a person who registered `alert-bot` first never authors incidents.
 */
@Injectable()
export class AlertBotRepository {
  private id: number | null = null;

  constructor(
    private readonly dataSource: DataSource,
    private readonly config: AppConfig,
  ) {}

  async ensure(): Promise<number> {
    if (this.id !== null) return this.id;
    const host = new URL(this.config.http.externalUrl).hostname;
    for (let suffix = 0; suffix <= MAX_SUFFIX; suffix++) {
      const username = suffix === 0 ? ALERT_BOT_USERNAME : `${ALERT_BOT_USERNAME}${suffix}`;
      const email = `${username}@noreply.${host}`;
      await this.dataSource.query(
        `INSERT INTO users (username, name, email, user_type, can_create_group, projects_limit, confirmed_at)
         VALUES ($1, $2, $3, 'project_bot', false, 0, now())
         ON CONFLICT DO NOTHING`,
        [username, ALERT_BOT_NAME, email],
      );
      const rows: Array<{ id: number; user_type: string; email: string }> = await this.dataSource.query(
        `SELECT id, user_type, email FROM users WHERE lower(username) = lower($1)`,
        [username],
      );
      const row = rows[0];
      if (row && row.user_type !== 'human' && row.email.toLowerCase() === email.toLowerCase()) {
        this.id = row.id;
        return row.id;
      }
    }
    throw new Error(`no username free for the alert bot (${ALERT_BOT_USERNAME} to ${ALERT_BOT_USERNAME}${MAX_SUFFIX} are taken)`);
  }
}
