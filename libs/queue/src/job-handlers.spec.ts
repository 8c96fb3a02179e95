import { JobHandlerMismatchError, findJobHandlerProblems } from './job-handlers';

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

describe(JobHandlerMismatchError.name, () => {
  it('names the queue and every problem', () => {
    const error = new JobHandlerMismatchError('hook-deliveries', findJobHandlerProblems(['deliver-hook', 'other'], ['deliver-hok', 'deliver-hok']));
    expect(error.queue).toBe('hook-deliveries');
    expect(error.problems).toEqual({ missing: ['deliver-hook', 'other'], duplicated: [], unknown: ['deliver-hok'] });
    expect(error.message).toBe('Queue "hook-deliveries": no handler for deliver-hook, other; handlers for undeclared jobs deliver-hok');
  });
});
