import { LoggerService } from '@nestjs/common';
import { logLevel } from 'kafkajs';
import { createKafkaLogCreator } from './kafka.factory';

describe(createKafkaLogCreator.name, () => {
  const entry = (level: logLevel, message: string, extra: Record<string, unknown> = {}) => ({
    namespace: 'Producer',
    level,
    label: logLevel[level],
    log: { timestamp: '2025-01-01T00:00:00.000Z', logger: 'kafkajs', message, ...extra },
  });
  let logger: { log: jest.Mock; error: jest.Mock; warn: jest.Mock; debug: jest.Mock };
  let write: (e: ReturnType<typeof entry>) => void;

  beforeEach(() => {
    logger = { log: jest.fn(), error: jest.fn(), warn: jest.fn(), debug: jest.fn() };
    write = createKafkaLogCreator(logger as unknown as LoggerService)(logLevel.WARN);
  });

  it('writes errors and warnings with their namespace and extra fields, never the timestamp', () => {
    write(entry(logLevel.ERROR, 'Crash: something', { groupId: 'g' }));
    write(entry(logLevel.WARN, 'Slow down'));
    expect(logger.error).toHaveBeenCalledWith('[Producer] Crash: something {"groupId":"g"}');
    expect(logger.warn).toHaveBeenCalledWith('[Producer] Slow down');
  });

  it('writes an identical message once per minute', () => {
    write(entry(logLevel.ERROR, 'Crash: something'));
    write(entry(logLevel.ERROR, 'Crash: something'));
    write(entry(logLevel.ERROR, 'Crash: something else'));
    expect(logger.error).toHaveBeenCalledTimes(2);
  });

  it.each([
    'Connection error: connect ECONNREFUSED 127.0.0.1:9092',
    'Failed to connect to seed broker, trying another broker from the list: x',
    'Failed to send messages: Connection error',
    'Response Produce(key: 0, version: 7)',
    'Limiting retries for the idempotent producer may invalidate EoS guarantees',
  ])('demotes expected outage noise to debug: %s', (message) => {
    write(entry(logLevel.ERROR, message));
    expect(logger.error).not.toHaveBeenCalled();
    expect(logger.debug).toHaveBeenCalledTimes(1);
  });

  it('sends info and debug entries to debug', () => {
    write(entry(logLevel.INFO, 'Starting'));
    expect(logger.debug).toHaveBeenCalledWith('[Producer] Starting');
    expect(logger.warn).not.toHaveBeenCalled();
  });
});
