import { ChildProcess, execFile, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { closeSync, existsSync, mkdirSync, openSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { Kafka, logLevel } from 'kafkajs';
import { testEnvironment } from './test-environment';

/** Where `scripts/services.sh up` puts the broker's jars (Maven Central, see infra/kafka/pom.xml). */
export const KAFKA_LIBS_DIR = resolve(__dirname, '../../../.cache/kafka/libs');

const HOST = '127.0.0.1';
/** The same java as scripts/services.sh: $JAVA_HOME/bin/java when set, else java on the PATH. */
const javaHome = testEnvironment.javaHome();
const JAVA = javaHome && existsSync(join(javaHome, 'bin', 'java')) ? join(javaHome, 'bin', 'java') : 'java';

export interface TestBrokerOptions {
  /** PLAINTEXT port. Default: a free port. */
  port?: number;
  /** KRaft controller port. Default: a free port. */
  controllerPort?: number;
  /** Kafka `log.dirs` (topics + KRaft metadata). Default: `data/` in a fresh temporary folder. */
  dataDir?: string;
  /** Folder with the broker's jars. Default `KAFKA_LIBS_DIR`. */
  libsDir?: string;
  /** Bound of one start (JVM boot + first metadata round trip). Default 90 s. */
  startTimeoutMs?: number;
}

const execFileAsync = promisify(execFile);

/** Reserves a free TCP port on 127.0.0.1 (released immediately; tiny race accepted in tests). */
export async function freePort(): Promise<number> {
  return new Promise<number>((resolvePort, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, HOST, () => {
      const address = server.address();
      server.close(() => (address && typeof address === 'object' ? resolvePort(address.port) : reject(new Error('no port'))));
    });
  });
}

/**
 * A private single-node KRaft Kafka broker for tests that must stop and restart Kafka without
 * disturbing the shared broker on 9092. Runs the jars of `scripts/services.sh` with the same
 * single-node settings. `stop()` + `start()` restarts it on the same data dir and ports.
 */
export class TestKafkaBroker {
  private process: ChildProcess | null = null;
  private exited: Promise<void> | null = null;
  private readonly killOnExit = (): void => {
    this.process?.kill('SIGKILL');
  };

  private constructor(
    readonly port: number,
    readonly controllerPort: number,
    readonly dataDir: string,
    private readonly workDir: string,
    private readonly ownsWorkDir: boolean,
    private readonly libsDir: string,
    private readonly startTimeoutMs: number,
  ) {}

  static async create(options: TestBrokerOptions = {}): Promise<TestKafkaBroker> {
    const libsDir = options.libsDir ?? KAFKA_LIBS_DIR;
    if (!existsSync(libsDir) || !readdirSync(libsDir).some((file) => /^kafka_2\.13-.*\.jar$/.test(file))) {
      throw new Error(`Kafka jars not found in ${libsDir}: run \`bash scripts/services.sh up\` once to fetch them`);
    }
    const workDir = await mkdtemp(join(tmpdir(), 'kafka-test-broker-'));
    const port = options.port ?? (await freePort());
    let controllerPort = options.controllerPort ?? (await freePort());
    while (controllerPort === port) controllerPort = await freePort();
    const broker = new TestKafkaBroker(
      port,
      controllerPort,
      options.dataDir ?? join(workDir, 'data'),
      workDir,
      true,
      libsDir,
      options.startTimeoutMs ?? 90_000,
    );
    broker.writeConfig();
    return broker;
  }

  get brokers(): string[] {
    return [`${HOST}:${this.port}`];
  }

  get running(): boolean {
    return this.process !== null;
  }

  get logFile(): string {
    return join(this.workDir, 'broker.log');
  }

  private get propsFile(): string {
    return join(this.workDir, 'server.properties');
  }

  private get log4jFile(): string {
    return join(this.workDir, 'log4j.properties');
  }

  private writeConfig(): void {
    mkdirSync(this.dataDir, { recursive: true });
    writeFileSync(
      this.propsFile,
      [
        '# Single-node KRaft broker+controller for one test file (libs/testing/src/kafka-broker.ts).',
        'process.roles=broker,controller',
        'node.id=1',
        `controller.quorum.voters=1@${HOST}:${this.controllerPort}`,
        'controller.listener.names=CONTROLLER',
        `listeners=PLAINTEXT://${HOST}:${this.port},CONTROLLER://${HOST}:${this.controllerPort}`,
        `advertised.listeners=PLAINTEXT://${HOST}:${this.port}`,
        'inter.broker.listener.name=PLAINTEXT',
        'listener.security.protocol.map=CONTROLLER:PLAINTEXT,PLAINTEXT:PLAINTEXT',
        `log.dirs=${this.dataDir}`,
        // One broker: internal topics cannot have more replicas than that.
        'offsets.topic.replication.factor=1',
        'transaction.state.log.replication.factor=1',
        'transaction.state.log.min.isr=1',
        'default.replication.factor=1',
        'min.insync.replicas=1',
        'group.initial.rebalance.delay.ms=0',
        'auto.create.topics.enable=true',
        'num.partitions=3',
        // Faster first consumer group (the default creates 50 partitions).
        'offsets.topic.num.partitions=3',
        'log.retention.hours=-1',
        'log.retention.ms=-1',
        'log.retention.bytes=-1',
        '',
      ].join('\n'),
    );
    writeFileSync(
      this.log4jFile,
      [
        'log4j.rootLogger=WARN, stdout',
        'log4j.appender.stdout=org.apache.log4j.ConsoleAppender',
        'log4j.appender.stdout.layout=org.apache.log4j.PatternLayout',
        'log4j.appender.stdout.layout.ConversionPattern=[%d] %p %m (%c)%n',
        'log4j.logger.kafka.server.KafkaServer=INFO',
        'log4j.logger.kafka.server.BrokerServer=INFO',
        '',
      ].join('\n'),
    );
  }

  private javaArgs(heap: string[], mainClass: string, ...args: string[]): string[] {
    return [...heap, '-XX:+UseSerialGC', '-XX:TieredStopAtLevel=1', '-Djava.awt.headless=true', `-Dlog4j.configuration=file:${this.log4jFile}`, '-cp', `${this.libsDir}/*`, mainClass, ...args];
  }

  /** Formats the data dir once (KRaft writes the cluster id into meta.properties). */
  private async format(): Promise<void> {
    if (existsSync(join(this.dataDir, 'meta.properties'))) return;
    // As Kafka's own `Uuid.randomUuid()`: an id starting with '-' would be read as an option.
    let clusterId: string;
    do clusterId = randomBytes(16).toString('base64url');
    while (clusterId.startsWith('-'));
    await execFileAsync(JAVA, this.javaArgs(['-Xmx128m'], 'kafka.tools.StorageTool', 'format', '-t', clusterId, '-c', this.propsFile), {
      timeout: 60_000,
    });
  }

  /** Starts the broker and waits until a kafkajs admin can describe the cluster. */
  async start(): Promise<void> {
    if (this.process) return;
    await this.format();
    const log = openSync(this.logFile, 'a');
    const child = spawn(JAVA, this.javaArgs(['-Xms256m', '-Xmx512m'], 'kafka.Kafka', this.propsFile), { stdio: ['ignore', log, log] });
    closeSync(log);
    this.process = child;
    this.exited = new Promise<void>((resolveExit) => child.once('exit', () => resolveExit()));
    void this.exited.then(() => {
      if (this.process === child) this.process = null;
    });
    process.once('exit', this.killOnExit);
    try {
      await this.waitUntilAnswering();
    } catch (error) {
      await this.stop();
      throw error;
    }
  }

  private async waitUntilAnswering(): Promise<void> {
    const deadline = Date.now() + this.startTimeoutMs;
    const kafka = new Kafka({ clientId: 'test-broker-probe', brokers: this.brokers, logLevel: logLevel.NOTHING, connectionTimeout: 1_000, retry: { retries: 0 } });
    for (;;) {
      if (!this.process) throw new Error(`Kafka test broker exited during startup:\n${this.logTail()}`);
      const admin = kafka.admin();
      try {
        await admin.connect();
        const cluster = await admin.describeCluster();
        if (cluster.brokers.length > 0) return;
      } catch {
        // not ready yet
      } finally {
        await admin.disconnect().catch(() => undefined);
      }
      if (Date.now() > deadline) throw new Error(`Kafka test broker did not answer on ${this.brokers[0]} within ${this.startTimeoutMs} ms:\n${this.logTail()}`);
      await new Promise((r) => setTimeout(r, 250));
    }
  }

  /** SIGTERM (controlled shutdown, logs flushed) and wait for the exit; SIGKILL after `timeoutMs`. */
  async stop(timeoutMs = 30_000): Promise<void> {
    const child = this.process;
    if (!child) return;
    child.kill('SIGTERM');
    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<boolean>((r) => (timer = setTimeout(() => r(true), timeoutMs)));
    const killed = await Promise.race([this.exited!.then(() => false), timedOut]);
    clearTimeout(timer);
    if (killed) {
      child.kill('SIGKILL');
      await this.exited;
    }
    this.process = null;
    process.removeListener('exit', this.killOnExit);
  }

  /** Stops the broker and deletes its temporary folder. */
  async destroy(): Promise<void> {
    await this.stop();
    if (this.ownsWorkDir) await rm(this.workDir, { recursive: true, force: true });
  }

  logTail(lines = 40): string {
    try {
      return readFileSync(this.logFile, 'utf8').split('\n').slice(-lines).join('\n');
    } catch {
      return '(no broker log)';
    }
  }
}

/** Creates a private broker in a temporary folder and starts it. Call `destroy()` when done. */
export async function startTestBroker(options: TestBrokerOptions = {}): Promise<TestKafkaBroker> {
  const broker = await TestKafkaBroker.create(options);
  try {
    await broker.start();
  } catch (error) {
    await broker.destroy().catch(() => undefined);
    throw error;
  }
  return broker;
}
