import type { JobStatus } from './ci-status';
import { compositeStatus, hasWarnings, StatusItem } from './composite-status';
import { processPipeline, ProcessableJob } from './pipeline-processing';

const s = (...statuses: JobStatus[]): StatusItem[] => statuses.map((status) => ({ status, allowFailure: false }));
const allowed = (status: JobStatus): StatusItem => ({ status, allowFailure: true });

describe(compositeStatus.name, () => {
  it.each<[JobStatus[], JobStatus]>([
    [['success'], 'success'],
    [['skipped'], 'skipped'],
    [['success', 'skipped'], 'success'],
    [['created'], 'created'],
    [['created', 'success'], 'running'],
    [['pending'], 'pending'],
    [['pending', 'created'], 'pending'],
    [['pending', 'success'], 'running'],
    [['running', 'failed'], 'running'],
    [['canceled'], 'canceled'],
    [['canceled', 'success'], 'canceled'],
    [['canceled', 'failed'], 'failed'],
    [['failed', 'success'], 'failed'],
    [['manual'], 'manual'],
    [['manual', 'success'], 'manual'],
    [['manual', 'failed'], 'manual'],
    [['scheduled', 'success'], 'scheduled'],
    [['preparing'], 'preparing'],
    [['waiting_for_resource', 'success'], 'waiting_for_resource'],
  ])('%j gives %s', (statuses, expected) => {
    expect(compositeStatus(s(...statuses))).toBe(expected);
  });

  it('gives null without jobs', () => {
    expect(compositeStatus([])).toBeNull();
  });

  it('counts allowed failures and cancellations as successes with warnings', () => {
    expect(compositeStatus([...s('success'), allowed('failed')])).toBe('success');
    expect(compositeStatus([allowed('failed')])).toBe('success');
    expect(compositeStatus([allowed('canceled'), ...s('success')])).toBe('success');
    expect(hasWarnings([...s('success'), allowed('failed')])).toBe(true);
    expect(hasWarnings(s('success', 'failed'))).toBe(false);
  });

  it('ignores allowed manual jobs', () => {
    expect(compositeStatus([allowed('manual'), ...s('success')])).toBe('success');
    expect(compositeStatus([allowed('manual')])).toBe('skipped');
    expect(compositeStatus([allowed('manual'), ...s('created')])).toBe('created');
  });

  it('in a DAG, waits for incomplete needs and skips after skipped or ignored ones', () => {
    expect(compositeStatus(s('success', 'running'), { dag: true })).toBe('pending');
    expect(compositeStatus(s('success', 'manual'), { dag: true })).toBe('pending');
    expect(compositeStatus(s('success', 'skipped'), { dag: true })).toBe('skipped');
    expect(compositeStatus([allowed('manual')], { dag: true })).toBe('skipped');
    expect(compositeStatus(s('success', 'failed'), { dag: true })).toBe('failed');
    expect(compositeStatus([...s('success'), allowed('failed')], { dag: true })).toBe('success');
  });
});

describe(processPipeline.name, () => {
  let nextId = 1;
  const job = (name: string, stageIdx: number, extra: Partial<ProcessableJob> = {}): ProcessableJob => ({
    id: nextId++,
    name,
    stageIdx,
    status: 'created',
    allowFailure: false,
    when: 'on_success',
    needs: null,
    ...extra,
  });
  beforeEach(() => {
    nextId = 1;
  });

  it('enqueues the first stage only', () => {
    const jobs = [job('a', 1), job('b', 1), job('c', 2)];
    expect(processPipeline(jobs)).toEqual([
      { id: 1, to: 'pending' },
      { id: 2, to: 'pending' },
    ]);
  });

  it('enqueues the next stage when the previous one succeeded', () => {
    const jobs = [job('a', 1, { status: 'success' }), job('b', 1, { status: 'success' }), job('c', 2)];
    expect(processPipeline(jobs)).toEqual([{ id: 3, to: 'pending' }]);
  });

  it('waits while a previous stage runs', () => {
    expect(processPipeline([job('a', 1, { status: 'running' }), job('c', 2)])).toEqual([]);
  });

  it('skips on_success jobs after a failure and runs on_failure and always jobs', () => {
    const jobs = [job('a', 1, { status: 'failed' }), job('b', 2), job('c', 2, { when: 'on_failure' }), job('d', 2, { when: 'always' }), job('e', 3)];
    expect(processPipeline(jobs)).toEqual([
      { id: 2, to: 'skipped' },
      { id: 3, to: 'pending' },
      { id: 4, to: 'pending' },
    ]);
  });

  it('skips on_failure jobs after success, cascading within the pass', () => {
    const jobs = [job('a', 1, { status: 'success' }), job('f', 2, { when: 'on_failure' }), job('g', 3)];
    expect(processPipeline(jobs)).toEqual([
      { id: 2, to: 'skipped' },
      { id: 3, to: 'pending' },
    ]);
  });

  it('continues after an allowed failure', () => {
    const jobs = [job('a', 1, { status: 'failed', allowFailure: true }), job('b', 2)];
    expect(processPipeline(jobs)).toEqual([{ id: 2, to: 'pending' }]);
  });

  it('makes manual jobs manual; a blocking manual job holds the next stages', () => {
    const jobs = [job('deploy', 1, { when: 'manual', allowFailure: false }), job('after', 2)];
    expect(processPipeline(jobs)).toEqual([{ id: 1, to: 'manual' }]);
    const optional = [job('deploy', 1, { when: 'manual', allowFailure: true }), job('after', 2)];
    expect(processPipeline(optional)).toEqual([
      { id: 3, to: 'manual' },
      { id: 4, to: 'pending' },
    ]);
  });

  it('starts a DAG job as soon as its needs succeed, regardless of stages', () => {
    const jobs = [job('a', 1, { status: 'success' }), job('slow', 1, { status: 'running' }), job('b', 2, { needs: ['a'] }), job('c', 2)];
    expect(processPipeline(jobs)).toEqual([{ id: 3, to: 'pending' }]);
  });

  it('starts `needs: []` jobs at once and skips DAG jobs whose need was skipped', () => {
    const jobs = [job('a', 1, { status: 'skipped' }), job('b', 3, { needs: [] }), job('c', 2, { needs: ['a'] })];
    expect(processPipeline(jobs)).toEqual([
      { id: 3, to: 'skipped' },
      { id: 2, to: 'pending' },
    ]);
  });

  it('leaves jobs that are not created alone', () => {
    expect(processPipeline([job('a', 1, { status: 'pending' }), job('b', 1, { status: 'manual', when: 'manual' })])).toEqual([]);
  });
});
