/** PostgreSQL errors as both drivers (node-postgres and PGlite) report them, wrapped or not. */
function* chain(error: unknown): Generator<{ code?: unknown; constraint?: unknown }> {
  for (let e: unknown = error; e && typeof e === 'object'; e = (e as { cause?: unknown }).cause) {
    yield e as { code?: unknown; constraint?: unknown };
  }
}

/** Whether a database error is a unique-constraint violation (23505). */
export function isUniqueViolation(error: unknown): boolean {
  for (const e of chain(error)) if (e.code === '23505') return true;
  return false;
}

/** The constraint name of a unique violation, or undefined for any other error. */
export function violatedConstraint(error: unknown): string | undefined {
  for (const e of chain(error)) {
    if (e.code === '23505' && typeof e.constraint === 'string') return e.constraint;
  }
  return undefined;
}

/** A deadlock (40P01) or serialization failure (40001): a concurrent change won; the caller may retry. */
export function isConcurrencyFailure(error: unknown): boolean {
  for (const e of chain(error)) if (e.code === '40P01' || e.code === '40001') return true;
  return false;
}
