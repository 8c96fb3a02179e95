import { JobHandlerMismatchError, assertJobHandlers, findJobHandlerProblems } from './job-handlers';
import { JOBS, QUEUES, jobNamesOf } from './queue.constants';

describe(findJobHandlerProblems.name, () => {
  it('finds nothing when every job name has exactly one handler', () => {
    expect(findJobHandlerProblems(['a', 'b'], ['b', 'a'])).toEqual({ missing: [], duplicated: [], unknown: [] });
  });

  it('reports job names without a handler', () => {
    expect(findJobHandlerProblems(['a', 'b', 'c'], ['b']).missing).toEqual(['a', 'c']);
  });

  it('reports job names handled more than once', () => {
    expect(findJobHandlerProblems(['a', 'b'], ['a', 'b', 'a']).duplicated).toEqual(['a']);
  });

  it('reports handlers for names the queue does not declare', () => {
    expect(findJobHandlerProblems(['a'], ['a', 'z', 'z'])).toEqual({ missing: [], duplicated: [], unknown: ['z'] });
  });
});

describe(assertJobHandlers.name, () => {
  it('accepts the declared job names of a queue', () => {
    expect(() => assertJobHandlers(QUEUES.HOOK_DELIVERIES, [JOBS['hook-deliveries'].DELIVER_HOOK])).not.toThrow();
  });

  it('uses the constants as the declared names by default', () => {
    expect(jobNamesOf(QUEUES.MAINTENANCE)).toEqual([JOBS.maintenance.PRUNE_HOOK_LOGS]);
    expect(() => assertJobHandlers(QUEUES.MAINTENANCE, [])).toThrow(JobHandlerMismatchError);
  });

  it('names the queue and every problem in the error', () => {
    let caught: unknown;
    try {
      assertJobHandlers(QUEUES.HOOK_DELIVERIES, ['deliver-hok', 'deliver-hok'], ['deliver-hook', 'other']);
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(JobHandlerMismatchError);
    const error = caught as JobHandlerMismatchError;
    expect(error.queue).toBe('hook-deliveries');
    expect(error.problems).toEqual({ missing: ['deliver-hook', 'other'], duplicated: [], unknown: ['deliver-hok'] });
    expect(error.message).toBe(
      'Queue "hook-deliveries": no handler for deliver-hook, other; handlers for undeclared jobs deliver-hok',
    );
  });
});
