import { AppConfig } from '@app/config';
import { createDataSource } from '@app/database';
import { createTestDatabase } from '@app/testing';
import { DataSource } from 'typeorm';
import { AlertBotRepository } from './alert-bot.repository';
import { ENTITIES } from '@apps/entities';

/** The alert bot user against PostgreSQL: created once under concurrency, never a person's account. */
describe('AlertBotRepository (PostgreSQL)', () => {
  let dataSource: DataSource;
  let drop: () => Promise<void>;
  const config = AppConfig.fromEnvironment({ EXTERNAL_URL: 'https://ops.example.com' });

  beforeEach(async () => {
    const db = await createTestDatabase('alert_bot');
    drop = db.drop;
    dataSource = await createDataSource(AppConfig.fromEnvironment({ DATABASE_URL: db.url }), ENTITIES).initialize();
  });

  afterEach(async () => {
    await dataSource.destroy();
    await drop();
  });

  const bots = () => dataSource.query(`SELECT id, username, name, email, user_type FROM users WHERE email LIKE '%@noreply.ops.example.com' ORDER BY id`);

  it('creates one bot user when several engines ask at once', async () => {
    const ids = await Promise.all(Array.from({ length: 6 }, () => new AlertBotRepository(dataSource, config).ensure()));
    expect(new Set(ids).size).toBe(1);
    expect(await bots()).toEqual([
      { id: ids[0], username: 'alert-bot', name: 'Alert Bot', email: 'alert-bot@noreply.ops.example.com', user_type: 'project_bot' },
    ]);
  });

  it('does not take over a person who registered the alert-bot username first', async () => {
    const [person] = await dataSource.query(`INSERT INTO users (username, name, email) VALUES ('Alert-Bot', 'Mallory', 'mallory@example.com') RETURNING id`);
    const id = await new AlertBotRepository(dataSource, config).ensure();
    expect(id).not.toBe(person.id);
    expect(await bots()).toEqual([{ id, username: 'alert-bot1', name: 'Alert Bot', email: 'alert-bot1@noreply.ops.example.com', user_type: 'project_bot' }]);
  });
});
