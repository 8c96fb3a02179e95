/**
 * The job token a request carries: `JOB-TOKEN` header, `job_token` (or `token`) parameter, the
 * body's `token` when the route takes one (`bodyToken`, read by its DTO), or `Authorization: Bearer`.
 */
export function jobTokenOf(
  request: { headers: Record<string, string | string[] | undefined>; query?: unknown },
  options: { bodyToken?: string } = {},
): string | null {
  const header = request.headers['job-token'];
  if (typeof header === 'string' && header) return header;
  const query = (request.query ?? {}) as Record<string, unknown>;
  if (typeof query.job_token === 'string' && query.job_token) return query.job_token;
  if (typeof query.token === 'string' && query.token) return query.token;
  if (options.bodyToken) return options.bodyToken;
  const authorization = request.headers.authorization;
  if (typeof authorization === 'string') {
    const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization);
    if (match) return match[1];
  }
  return null;
}
