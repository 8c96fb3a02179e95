import { Injectable, OnModuleInit } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { FastifyInstance } from 'fastify';
import { GIT_REQUEST_MEDIA_TYPES } from './git-http-routes';

/**
 * Registers a pass-through parser for git's request media types on the HTTP server: the body
 * reaches the git controller as the raw request stream (pushes can be large), unbuffered and
 * outside the API body limit; `Content-Encoding: gzip` is decoded by the controller.
 */
@Injectable()
export class GitBodyParsers implements OnModuleInit {
  constructor(private readonly adapterHost: HttpAdapterHost) {}

  onModuleInit(): void {
    const instance = this.adapterHost.httpAdapter?.getInstance?.() as FastifyInstance | undefined;
    if (!instance?.addContentTypeParser) return;
    for (const type of GIT_REQUEST_MEDIA_TYPES) {
      if (instance.hasContentTypeParser(type)) continue;
      instance.addContentTypeParser(type, (_request, payload, done) => done(null, payload));
    }
  }
}
