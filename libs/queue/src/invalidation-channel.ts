import type { LoggerService } from '@nestjs/common';
import type { Redis } from 'ioredis';

/** Why a process-local cache is dropped: a change announced on the channel, or a reconnection. */
export type InvalidationSource = 'message' | 'reconnect';

/**
 * Subscribes a dedicated connection to `channel`, on which changes of cached data are announced
 * to every process. `onInvalidate` runs on each message and after each reconnection (messages
 * sent while the subscription was down are lost, so the cache starts afresh). Until the first
 * subscription succeeds, ioredis subscribes again once connected; the cache lifetime bounds
 * staleness meanwhile. Close the returned connection with `closeRedisConnection`.
 */
export async function subscribeToInvalidations(
  redis: Redis,
  options: { channel: string; connectionName: string; logger: LoggerService; onInvalidate: (source: InvalidationSource) => void },
): Promise<Redis> {
  const { channel, logger, onInvalidate } = options;
  const subscriber = redis.duplicate({ connectionName: options.connectionName });
  subscriber.on('message', (received: string) => {
    if (received === channel) onInvalidate('message');
  });
  let readyBefore = false;
  subscriber.on('ready', () => {
    if (readyBefore) onInvalidate('reconnect');
    readyBefore = true;
  });
  subscriber.on('error', (error: Error) => logger.warn(`${options.connectionName}: ${error.message}`));
  try {
    await subscriber.subscribe(channel);
  } catch (error) {
    logger.warn(`cannot subscribe to ${channel} yet: ${(error as Error).message}`);
  }
  return subscriber;
}
