import { Inject, Injectable, OnApplicationShutdown } from '@nestjs/common';
import { AppConfig } from '@app/config';
import { Admin, Kafka, logLevel } from 'kafkajs';
import { ReadinessCheck } from '../readiness';

/**
 * The Kafka cluster answers a metadata request (`describeCluster`). Optional: while Kafka is
 * away writes still commit (the outbox relay publishes them once it is back) and the consumers
 * wait, so the process is `degraded`, still ready. The admin client is
 * created and connected on the first check and reused; any failure drops it so that the
 * next check reconnects. kafkajs retries (with backoff) by default, which would hold the
 * endpoint for many seconds: here a failed connection or request fails at once.
 */
@Injectable()
export class KafkaIndicator implements ReadinessCheck, OnApplicationShutdown {
  readonly name = 'kafka';
  readonly optional = true;
  private readonly kafka: Kafka;
  private admin?: Promise<Admin>;

  constructor(@Inject(AppConfig) config: AppConfig) {
    this.kafka = new Kafka({
      clientId: `${config.kafka.clientId}-health`,
      brokers: config.kafka.brokers,
      connectionTimeout: 1_000,
      requestTimeout: 1_500,
      retry: { retries: 0 },
      // The check reports its failures; kafkajs would log every refused connection.
      logLevel: logLevel.NOTHING,
    });
  }

  async check(): Promise<void> {
    const pending = (this.admin ??= this.connect());
    try {
      const admin = await pending;
      const cluster = await admin.describeCluster();
      if (cluster.brokers.length === 0) throw new Error('the cluster has no brokers');
    } catch (error) {
      if (this.admin === pending) this.admin = undefined;
      void pending.then((admin) => admin.disconnect()).catch(() => undefined);
      throw error;
    }
  }

  async onApplicationShutdown(): Promise<void> {
    const pending = this.admin;
    this.admin = undefined;
    await pending?.then((admin) => admin.disconnect()).catch(() => undefined);
  }

  private async connect(): Promise<Admin> {
    const admin = this.kafka.admin({ retry: { retries: 0 } });
    try {
      await admin.connect();
      return admin;
    } catch (error) {
      await admin.disconnect().catch(() => undefined);
      throw error;
    }
  }
}
