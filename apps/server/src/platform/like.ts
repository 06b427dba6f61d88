/** Escapes % and _ (and the escape character) so a LIKE / ILIKE filter matches them literally. */
export function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}
