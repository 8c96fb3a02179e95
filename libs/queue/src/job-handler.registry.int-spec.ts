import 'reflect-metadata';
import { Injectable, Module, Provider } from '@nestjs/common';
import { Test, TestingModule } from '@nestjs/testing';
import { BullModule, getQueueToken } from '@nestjs/bullmq';
import { AppConfig, ConfigModule } from '@app/config';
import { eventually } from '@app/testing';
import { Job, Queue } from 'bullmq';
import { randomBytes } from 'node:crypto';
import { JobWiringError } from './job-handler.registry';
import { JobWorker, OnJob, QueueWorker, defineQueue } from './job-queue';
import { QueueModule } from './queue.module';
import { RedisModule } from './redis.module';

const SUMS = defineQueue<{ add: { a: number; b: number }; negate: { n: number } }>()('registry-sums', { ADD: 'add', NEGATE: 'negate' });
const CHORES = defineQueue<{ sweep: { room: string } }>()('registry-chores', { SWEEP: 'sweep' });

@QueueWorker(SUMS)
class SumsWorker extends JobWorker {
  @OnJob(SUMS, 'add')
  async add({ a, b }: { a: number; b: number }): Promise<number> {
    return a + b;
  }
}

/** A handler on another provider than the worker. */
@Injectable()
class Negator {
  @OnJob(SUMS, SUMS.jobs.NEGATE)
  async negate({ n }: { n: number }, job: Job<{ n: number }>): Promise<string> {
    return `${job.name}:${-n}`;
  }
}

@Injectable()
class SecondNegator {
  @OnJob(SUMS, 'negate')
  async negate(): Promise<number> {
    return 0;
  }
}

@QueueWorker(CHORES)
class ChoresWorker extends JobWorker {
  @OnJob(CHORES, 'sweep', { schedule: { cron: '5 4 * * *' }, data: { room: 'hall' } })
  async sweep({ room }: { room: string }): Promise<string> {
    return room;
  }
}

/** A handler whose queue has no worker. */
@Injectable()
class Sweeper {
  @OnJob(CHORES, 'sweep')
  async sweep(): Promise<void> {}
}

// Compile-time checks of the typed job map (`tsc` fails if any of these compiles).
export class TypeChecks {
  // @ts-expect-error a job name the queue does not declare
  @OnJob(SUMS, 'multiply')
  async multiply(): Promise<void> {}

  // @ts-expect-error a payload type that is not the job's
  @OnJob(SUMS, 'add')
  async addStrings(_data: { a: string }): Promise<void> {}
}
// @ts-expect-error a job of the map without its constant
defineQueue<{ one: object; two: object }>()('incomplete', { ONE: 'one' });

describe('JobHandlerRegistry (@QueueWorker and @OnJob found at boot)', () => {
  const prefix = `registry-it-${randomBytes(4).toString('hex')}`;
  const config = AppConfig.fromEnvironment({ REDIS_PREFIX: prefix });

  const compile = (providers: Provider[], queues = [SUMS, CHORES]): Promise<TestingModule> => {
    @Module({
      imports: [ConfigModule.forRoot(config), RedisModule, QueueModule.forRoot(), BullModule.registerQueue(...queues.map(({ name }) => ({ name })))],
      providers,
    })
    class TestModule {}
    return Test.createTestingModule({ imports: [TestModule] })
      .setLogger({ log() {}, warn() {}, error() {} })
      .compile();
  };

  const bootFailure = async (providers: Provider[]): Promise<string> => {
    const app = await compile(providers);
    try {
      await app.init();
    } catch (error) {
      expect(error).toBeInstanceOf(JobWiringError);
      return (error as Error).message;
    } finally {
      await app.close();
    }
    throw new Error('the boot did not fail');
  };

  describe('with every job handled once', () => {
    let app: TestingModule;
    let sums: Queue;
    let chores: Queue;

    beforeAll(async () => {
      app = await compile([SumsWorker, Negator, ChoresWorker]);
      await app.init();
      sums = app.get<Queue>(getQueueToken(SUMS.name));
      chores = app.get<Queue>(getQueueToken(CHORES.name));
    });

    afterAll(async () => {
      await sums?.obliterate({ force: true });
      await chores?.obliterate({ force: true });
      await app?.close();
    });

    it('runs each job with the handler of its name, wherever the handler is declared', async () => {
      const added = await sums.add(SUMS.jobs.ADD, { a: 2, b: 3 });
      const negated = await sums.add(SUMS.jobs.NEGATE, { n: 7 });
      await eventually(async () => ((await sums.getJob(added.id!))?.returnvalue === 5 ? true : undefined), 'the add job');
      await eventually(async () => ((await sums.getJob(negated.id!))?.returnvalue === 'negate:-7' ? true : undefined), 'the negate job');
    });

    it('fails a job whose name has no handler without retrying it', async () => {
      const job = await sums.add('divide', {}, { attempts: 5, backoff: { type: 'fixed', delay: 10 } });
      const failed = await eventually(
        async () => ((await sums.getJobState(job.id!)) === 'failed' ? sums.getJob(job.id!) : undefined),
        'the unknown job to fail',
      );
      expect(failed?.failedReason).toBe('unknown job divide on registry-sums');
      expect(failed?.attemptsMade).toBe(1);
    });

    it('upserts one job scheduler per scheduled handler, in UTC', async () => {
      const schedulers = await chores.getJobSchedulers();
      expect(schedulers).toHaveLength(1);
      expect(schedulers[0]).toMatchObject({ key: 'sweep', name: 'sweep', pattern: '5 4 * * *', tz: 'UTC', template: { data: { room: 'hall' } } });
      // A second boot (another replica) leaves one scheduler.
      const replica = await compile([SumsWorker, Negator, ChoresWorker]);
      await replica.init();
      await replica.close();
      await expect(chores.getJobSchedulers()).resolves.toHaveLength(1);
    });
  });

  it('refuses to boot when a job of a queue with a worker has no handler', async () => {
    await expect(bootFailure([SumsWorker, ChoresWorker])).resolves.toBe('Queue "registry-sums": no handler for negate');
  });

  it('refuses to boot when a job has two handlers, naming both', async () => {
    await expect(bootFailure([SumsWorker, Negator, SecondNegator, ChoresWorker])).resolves.toBe(
      'Queue "registry-sums": several handlers for negate (Negator.negate, SecondNegator.negate)',
    );
  });

  it('refuses to boot when a handler has no worker for its queue in the process', async () => {
    await expect(bootFailure([SumsWorker, Negator, Sweeper])).resolves.toBe(
      'Queue "registry-chores": Sweeper.sweep handles sweep but the queue has no @QueueWorker in this process',
    );
  });
});
