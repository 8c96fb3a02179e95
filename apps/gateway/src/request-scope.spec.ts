import { AppConfig } from '@app/config';
import { NewDomainEvent, OutboxService, UncheckedNewDomainEvent } from '@app/messaging';
import { currentRequestId } from '@app/observability';
import type { EntityManager } from 'typeorm';
import { inRequestScope } from './request-scope';

/** Records what the outbox would insert. */
function capturingManager(): { manager: EntityManager; rows: Array<{ payload: Record<string, unknown>; headers: Record<string, string> }> } {
  const rows: Array<{ payload: Record<string, unknown>; headers: Record<string, string> }> = [];
  // The outbox writes its rows, as one JSON parameter, on the manager's connection.
  const connection = {
    query: async ({ values }: { values: unknown[] }) => {
      rows.push(...(JSON.parse(values[0] as string) as typeof rows));
      return { rows: [] };
    },
  };
  const manager = { queryRunner: { isReleased: false, databaseConnection: connection } } as unknown as EntityManager;
  return { manager, rows };
}

/** The outbox carries any type; this test writes events the catalogue does not check (their data is beside the point). */
const unchecked = (event: UncheckedNewDomainEvent): NewDomainEvent => event as NewDomainEvent;

const event = unchecked({ type: 'alert.created', actor: null, projectId: 1, groupId: null, target: null, data: {} });

describe(inRequestScope.name, () => {
  const outbox = new OutboxService(AppConfig.fromEnvironment({}));

  it('makes the request id current, so that outbox rows carry it, and only inside the scope', async () => {
    const { manager, rows } = capturingManager();
    const seen = await inRequestScope({ id: 'req-42', headers: {} }, async () => {
      await new Promise((resolve) => setImmediate(resolve));
      await outbox.append(manager, event);
      return currentRequestId();
    });
    expect(seen).toBe('req-42');
    expect(currentRequestId()).toBeUndefined();
    expect(rows[0].headers).toEqual({ 'x-request-id': 'req-42' });
    expect(rows[0].payload).not.toHaveProperty('hook_chain');
  });

  it('writes the hook chain of a request made by a hook receiver into the events', async () => {
    const { manager, rows } = capturingManager();
    const id = '6F1C2D3E-4A5B-4C6D-8E7F-0123456789AB';
    await inRequestScope({ id: 'req-43', headers: { 'x-service-event-uuid': id, 'x-service-event-chain-depth': '2' } }, () => outbox.append(manager, event));
    expect(rows[0].payload.hook_chain).toEqual({ id: id.toLowerCase(), depth: 2 });
    expect(rows[0].headers).toEqual({ 'x-request-id': 'req-43' });
  });

  it('ignores chain headers that are not a chain id', async () => {
    const { manager, rows } = capturingManager();
    await inRequestScope({ id: 'req-44', headers: { 'x-service-event-uuid': 'not-a-uuid', 'x-service-event-chain-depth': '2' } }, () =>
      outbox.append(manager, event),
    );
    expect(rows[0].payload).not.toHaveProperty('hook_chain');
  });
});
