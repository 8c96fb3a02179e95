import type { CataloguedEvent } from '@app/messaging';
import { finishedPipelineOf } from './security-reports.consumer';

const event = (type: 'pipeline.status_changed', data: Record<string, unknown>): CataloguedEvent<'pipeline.status_changed'> =>
  ({
    id: '00000000-0000-4000-8000-000000000000',
    type,
    version: 1,
    occurred_at: '2026-11-25T00:00:00Z',
    actor: 1,
    project_id: 1,
    group_id: null,
    target: null,
    data,
  }) as unknown as CataloguedEvent<'pipeline.status_changed'>;

describe(finishedPipelineOf.name, () => {
  it.each(['success', 'failed', 'canceled', 'skipped'])('asks to ingest a pipeline that became %s', (to) => {
    expect(finishedPipelineOf(event('pipeline.status_changed', { pipeline_id: 12, from: 'running', to }))).toBe(12);
  });

  it.each([
    ['a running pipeline', event('pipeline.status_changed', { pipeline_id: 12, from: 'pending', to: 'running' })],
    ['an unknown status', event('pipeline.status_changed', { pipeline_id: 12, to: 'exploded' })],
    ['a change without a status', event('pipeline.status_changed', { pipeline_id: 12 })],
  ])('passes over %s', (_what, input) => {
    expect(finishedPipelineOf(input)).toBeNull();
  });
});
