import type { CataloguedEvent } from '@app/messaging';
import { pushOf } from '@app/repository';
import { mergeRequestPipelineRequest, mergeRequestRef, mergeRequestTriggerId, pushedBranch } from './merge-request-pipelines';

const event = <T extends 'merge_request.opened' | 'merge_request.reopened' | 'push' | 'tag_push'>(
  type: T,
  data: Record<string, unknown>,
  projectId: number | null = 7,
) => ({ id: 'e1', type, data, project_id: projectId, occurred_at: '2026-11-25T00:00:00Z' }) as unknown as CataloguedEvent<T>;

describe('merge request pipelines', () => {
  it('derives one valid, stable trigger id per event and merge request', () => {
    const id = mergeRequestTriggerId('0b7c3f8e-1d2a-4c5b-9e6f-7a8b9c0d1e2f', 3);
    expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(mergeRequestTriggerId('0b7c3f8e-1d2a-4c5b-9e6f-7a8b9c0d1e2f', 3)).toBe(id);
    expect(mergeRequestTriggerId('0b7c3f8e-1d2a-4c5b-9e6f-7a8b9c0d1e2f', 4)).not.toBe(id);
    expect(mergeRequestTriggerId('0b7c3f8e-1d2a-4c5b-9e6f-7a8b9c0d1e2f', 3)).not.toBe('0b7c3f8e-1d2a-4c5b-9e6f-7a8b9c0d1e2f');
  });

  it('reads the merge request opened or reopened (the consumer subscribes to these two only)', () => {
    expect(mergeRequestPipelineRequest(event('merge_request.opened', { merge_request: { id: 5 } }))).toBe(5);
    expect(mergeRequestPipelineRequest(event('merge_request.reopened', { merge_request: { id: 6 } }))).toBe(6);
  });

  it('reads pushed branches, not tags or deletions', () => {
    const sha = 'a'.repeat(40);
    expect(pushedBranch(pushOf(event('push', { ref: 'refs/heads/feature/x', before: sha, after: sha })))).toEqual({ projectId: 7, branch: 'feature/x', sha });
    expect(pushedBranch(pushOf(event('push', { ref: 'refs/heads/x', before: sha, after: '0'.repeat(40) })))).toBeNull();
    expect(pushedBranch(pushOf(event('tag_push', { ref: 'refs/tags/v1', before: sha, after: sha })))).toBeNull();
    expect(mergeRequestRef(12)).toBe('refs/merge-requests/12/head');
  });
});
