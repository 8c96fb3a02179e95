import { DomainError, ErrorCode } from '@app/api';
import type { NamespacesFixture } from './namespaces.fixture';

/** Runs `action`, expects a DomainError with `code`, and that the failed use case wrote nothing to the outbox. */
export async function rejectsWithoutEvents(fx: NamespacesFixture, action: () => Promise<unknown>, code: ErrorCode): Promise<DomainError> {
  const mark = await fx.outboxMark();
  const error = await action().then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(DomainError);
  expect((error as DomainError).code).toBe(code);
  await expect(fx.eventsSince(mark)).resolves.toEqual([]);
  return error as DomainError;
}
