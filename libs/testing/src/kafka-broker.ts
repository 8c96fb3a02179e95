import { ChildProcess, spawn } from 'node:child_process';
import { closeSync, openSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Kafka, logLevel } from 'kafkajs';

/**
 * The one Kafka launcher of the repository: `scripts/services.sh` starts the development broker
 * (`up`) and runs the tests' private brokers (`broker`, in the foreground), with the same jars
 * and settings.
 */
export const SERVICES_SCRIPT = resolve(__dirname, '../../../scripts/services.sh');

const HOST = '127.0.0.1';

export interface TestBrokerOptions {
  /** PLAINTEXT port. Default: a free port. */
  port?: number;
  /** KRaft controller port. Default: a free port. */
  controllerPort?: number;
  /** Kafka `log.dirs` (topics + KRaft metadata). Default: `data/` in a fresh temporary folder. */
  dataDir?: string;
  /**
   * Bound of one start: storage formatting (a JVM run of its own) then broker boot and the first
   * metadata round trip. Default 150 s: the 60 s the formatting had and the 90 s the boot had
   * when they were bounded separately.
   */
  startTimeoutMs?: number;
}

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
 * disturbing the shared broker on 9092: `scripts/services.sh broker` (which fetches the jars the
 * first time, writes the configuration, formats the data dir once and becomes the JVM).
 * `stop()` + `start()` restarts it on the same data dir and ports.
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
    private readonly startTimeoutMs: number,
  ) {}

  static async create(options: TestBrokerOptions = {}): Promise<TestKafkaBroker> {
    const workDir = await mkdtemp(join(tmpdir(), 'kafka-test-broker-'));
    const port = options.port ?? (await freePort());
    let controllerPort = options.controllerPort ?? (await freePort());
    while (controllerPort === port) controllerPort = await freePort();
    return new TestKafkaBroker(port, controllerPort, options.dataDir ?? join(workDir, 'data'), workDir, true, options.startTimeoutMs ?? 150_000);
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

  /** Starts the broker and waits until a kafkajs admin can describe the cluster. */
  async start(): Promise<void> {
    if (this.process) return;
    const log = openSync(this.logFile, 'a');
    const args = [
      'broker',
      '--port',
      String(this.port),
      '--controller-port',
      String(this.controllerPort),
      '--data-dir',
      this.dataDir,
      '--work-dir',
      this.workDir,
    ];
    // The script execs java: the child is the JVM, and SIGTERM is a controlled shutdown.
    const child = spawn('bash', [SERVICES_SCRIPT, ...args], { stdio: ['ignore', log, log] });
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
    const kafka = new Kafka({
      clientId: 'test-broker-probe',
      brokers: this.brokers,
      logLevel: logLevel.NOTHING,
      connectionTimeout: 1_000,
      retry: { retries: 0 },
    });
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
