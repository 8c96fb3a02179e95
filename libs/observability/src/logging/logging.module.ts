/**
 * Structured JSON logging (pino through nestjs-pino).
 *
 * HTTP application (gateway):
 *
 *   @Module({ imports: [ConfigModule.forRoot(), LoggingModule.forRoot(), ...] })
 *   export class GatewayModule {}
 *
 *   const app = await NestFactory.create<NestFastifyApplication>(GatewayModule, adapter, { bufferLogs: true });
 *   app.useLogger(app.get(Logger)); // Logger from 'nestjs-pino'
 *
 * Headless application (alert-engine, projector):
 *
 *   const app = await NestFactory.createApplicationContext(AlertEngineModule, { bufferLogs: true });
 *   app.useLogger(app.get(Logger));
 *
 * Then log with Nest's own `new Logger(MyService.name)` (or inject `PinoLogger`): every line
 * is one JSON object `{"level":"info","time":"…","pid":…,"hostname":"…","context":"MyService","msg":"…"}`
 * at or above `config.logLevel` (LOG_LEVEL). Inside an HTTP request, lines also carry
 * `reqId`, the Fastify request id: the incoming `X-Request-Id` header when the adapter is
 * created with `requestIdHeader: 'x-request-id'`, otherwise the adapter's `genReqId`
 * (a UUID). The id is echoed as the `X-Request-Id` response header, and each request ends
 * with one access line (`msg: "request completed"`, `method`, `route` pattern, `url`,
 * `statusCode`, `durationMs`). Pass the id on into job data and Kafka headers
 * (`requestId`) so that work caused by a request can be found from it.
 *
 * Secrets never reach the output: the `authorization`, `private-token`, `job-token`,
 * `cookie` and `set-cookie` headers, the `private_token`/`access_token`/`job_token`
 * query parameters (in objects and inside URL strings) and any field named `token`,
 * `*_token`, `*password*`, `*_key` or `*secret*` become `[REDACTED]`, at any depth.
 *
 * nestjs-pino keeps one pino-http instance per process: when several applications share
 * a process (`npm start`), the first one's configuration serves them all.
 *
 * Tests read the lines back by passing a stream: `LoggingModule.forRoot({ destination })`.
 */
import { DynamicModule, Inject, Module, OnModuleInit, Optional } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import { AppConfig } from '@app/config';
import { LoggerModule, PARAMS_PROVIDER_TOKEN, Params } from 'nestjs-pino';
import type { DestinationStream, Logger } from 'pino';
import type { Options } from 'pino-http';
import { fastifyOf } from '../core/fastify-instance';
import { registerRequestLogging } from './request-logging';
import { createRootLogger } from './root-logger';

export interface LoggingOptions {
  /** Where the JSON lines go; standard output when omitted. */
  destination?: DestinationStream;
}

const ROOT_LOGGER = Symbol('ROOT_LOGGER');

@Module({})
export class LoggingModule implements OnModuleInit {
  constructor(
    @Inject(ROOT_LOGGER) private readonly logger: Logger,
    @Optional() @Inject(HttpAdapterHost) private readonly adapterHost?: HttpAdapterHost,
  ) {}

  static forRoot(options: LoggingOptions = {}): DynamicModule {
    return {
      module: LoggingModule,
      global: true,
      imports: [
        LoggerModule.forRootAsync({
          inject: [AppConfig],
          useFactory: (config: AppConfig): Params => ({
            pinoHttp: {
              logger: createRootLogger({ level: config.logLevel, destination: options.destination }),
              // The access line is written by `registerRequestLogging`, which knows the route pattern.
              autoLogging: false,
            },
            // No per-request middleware: lines logged during a request get their `reqId` from the
            // request context (`createRootLogger`'s mixin; `registerRequestLogging` enters it), so
            // requests pay neither a child logger nor the path matching of a middleware.
            forRoutes: [],
          }),
        }),
      ],
      providers: [
        {
          provide: ROOT_LOGGER,
          inject: [PARAMS_PROVIDER_TOKEN],
          useFactory: (params: Params): Logger => (params.pinoHttp as Options).logger as Logger,
        },
      ],
      exports: [LoggerModule],
    };
  }

  onModuleInit(): void {
    const fastify = fastifyOf(this.adapterHost);
    if (fastify) registerRequestLogging(fastify, this.logger);
  }
}
