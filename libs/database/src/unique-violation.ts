/** The constraint named by a PostgreSQL unique violation (23505), or null for any other error. */
export function uniqueViolation(error: unknown): string | null {
  const e = error as { code?: string; constraint?: string; driverError?: { code?: string; constraint?: string } };
  const code = e.code ?? e.driverError?.code;
  return code === '23505' ? (e.constraint ?? e.driverError?.constraint ?? '') : null;
}
