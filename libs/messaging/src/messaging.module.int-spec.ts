import 'reflect-metadata';
import { INestApplicationContext } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { AppConfig, ConfigModule } from '@app/config';
import { DatabaseModule } from '@app/database';
import { createTestDatabase, randomKafkaPrefix } from '@app/testing';
import { DataSource } from 'typeorm';
import { OutboxEventEntity } from './outbox-event.entity';
import type { NewDomainEvent } from './catalogue/domain-event-catalogue';
import { DomainEvent, UncheckedNewDomainEvent } from './core/domain-event';
import { DomainEventConsumerFactory } from './domain-event-consumer.factory';
import { MessagingModule } from './messaging.module';
import { OutboxRelay } from './outbox.relay';
import { OutboxService } from './outbox.service';
import { CONSUMER_GROUPS } from './core/topics.constants';

/** The outbox carries any type; this test writes events the catalogue does not check (their data is beside the point). */
const unchecked = (event: UncheckedNewDomainEvent): NewDomainEvent => event as NewDomainEvent;

jest.setTimeout(60_000);

describe(MessagingModule.name, () => {
  let db: { url: string; drop: () => Promise<void> };
  let config: AppConfig;

  const boot = async (relay: boolean): Promise<INestApplicationContext> => {
    const app = await NestFactory.createApplicationContext(
      {
        module: class MessagingTestModule {},
        imports: [ConfigModule.forRoot(config), DatabaseModule.forRoot([OutboxEventEntity]), MessagingModule.forRoot({ relay })],
      },
      { logger: false },
    );
    await app.init();
    return app;
  };

  beforeAll(async () => {
    db = await createTestDatabase('messaging_module');
    config = AppConfig.fromEnvironment({ DATABASE_URL: db.url, KAFKA_TOPIC_PREFIX: randomKafkaPrefix('messaging-module'), MIGRATIONS_RUN: 'false' });
  });

  afterAll(async () => {
    await db?.drop();
  });

  it('runs the relay with relay: true, delivers to consumers made by the factory, and stops both on close', async () => {
    const app = await boot(true);
    let closed = false;
    try {
      const relay = app.get(OutboxRelay);
      expect(relay.running).toBe(true);
      const received: DomainEvent[] = [];
      const consumer = app
        .get(DomainEventConsumerFactory)
        .create({ groupId: CONSUMER_GROUPS.HOOK_DISPATCHER, handler: async (event) => void received.push(event) });
      await consumer.start();
      expect(consumer.running).toBe(true);

      const outbox = app.get(OutboxService);
      const [event] = await app
        .get(DataSource)
        .transaction((manager) => outbox.append(manager, unchecked({ type: 'module.test', projectId: 3, data: { ok: true } })));
      const deadline = Date.now() + 20_000;
      while (!received.some((e) => e.id === event.id) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
      expect(received).toEqual([event]);

      await app.close();
      closed = true;
      expect(relay.running).toBe(false);
      expect(consumer.running).toBe(false);
    } finally {
      if (!closed) await app.close();
    }
  });

  it('does not run the relay with relay: false, and OutboxService still writes', async () => {
    const app = await boot(false);
    try {
      expect(app.get(OutboxRelay).running).toBe(false);
      const [event] = await app.get(DataSource).transaction((manager) => app.get(OutboxService).append(manager, unchecked({ type: 'module.test' })));
      const rows = await app.get(DataSource).query('SELECT published_at FROM outbox_events WHERE id = $1', [event.id]);
      expect(rows).toEqual([{ published_at: null }]);
    } finally {
      await app.close();
    }
  });

  it('writes what is appended inside collect once, at its end, in order; nothing when the work fails', async () => {
    const app = await boot(false);
    try {
      const outbox = app.get(OutboxService);
      const dataSource = app.get(DataSource);
      const ids = await dataSource.transaction((manager) =>
        outbox.collect(manager, async () => {
          const [a] = await outbox.append(manager, unchecked({ type: 'module.collect', data: { n: 1 } }));
          // Not written yet: the rows wait for the end of the work.
          expect(await manager.query('SELECT count(*)::int AS n FROM outbox_events WHERE id = $1', [a.id])).toEqual([{ n: 0 }]);
          const [b, c] = await outbox.append(manager, [
            unchecked({ type: 'module.collect', data: { n: 2 } }),
            unchecked({ type: 'module.collect', data: { n: 3 } }),
          ]);
          return [a.id, b.id, c.id];
        }),
      );
      const rows = (await dataSource.query(`SELECT id FROM outbox_events WHERE id = ANY($1::uuid[]) ORDER BY seq`, [ids])) as { id: string }[];
      expect(rows.map((row) => row.id)).toEqual(ids);

      let lost = '';
      await expect(
        dataSource.transaction((manager) =>
          outbox.collect(manager, async () => {
            [{ id: lost }] = await outbox.append(manager, unchecked({ type: 'module.collect' }));
            throw new Error('work failed');
          }),
        ),
      ).rejects.toThrow('work failed');
      expect(await dataSource.query('SELECT count(*)::int AS n FROM outbox_events WHERE id = $1', [lost])).toEqual([{ n: 0 }]);
    } finally {
      await app.close();
    }
  });
});
