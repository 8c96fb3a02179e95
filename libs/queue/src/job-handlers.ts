/** What is wrong between the job names of a queue and the handlers registered for it. */
export interface JobHandlerProblems {
  /** Job names nobody handles: such jobs would fail every attempt. */
  missing: string[];
  /** Job names with more than one handler: which one runs would be an accident. */
  duplicated: string[];
  /** Handlers for names the queue does not define (typo, or a renamed job). */
  unknown: string[];
}

/** Compares the declared job names of a queue with the job names its handlers claim (one entry per handler). */
export function findJobHandlerProblems(jobNames: readonly string[], handled: readonly string[]): JobHandlerProblems {
  const declared = new Set(jobNames);
  const counts = new Map<string, number>();
  for (const name of handled) counts.set(name, (counts.get(name) ?? 0) + 1);
  return {
    missing: [...declared].filter((name) => !counts.has(name)).sort(),
    duplicated: [...counts]
      .filter(([name, n]) => declared.has(name) && n > 1)
      .map(([name]) => name)
      .sort(),
    unknown: [...counts.keys()].filter((name) => !declared.has(name)).sort(),
  };
}

export class JobHandlerMismatchError extends Error {
  constructor(
    readonly queue: string,
    readonly problems: JobHandlerProblems,
  ) {
    const parts = [
      problems.missing.length ? `no handler for ${problems.missing.join(', ')}` : '',
      problems.duplicated.length ? `several handlers for ${problems.duplicated.join(', ')}` : '',
      problems.unknown.length ? `handlers for undeclared jobs ${problems.unknown.join(', ')}` : '',
    ].filter(Boolean);
    super(`Queue "${queue}": ${parts.join('; ')}`);
    this.name = 'JobHandlerMismatchError';
  }
}
