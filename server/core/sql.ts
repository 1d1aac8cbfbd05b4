// SQL text made safely from the schemas' names and values: an identifier (a table or column name) quoted
// as PostgreSQL quotes one, its double quotes doubled; a list of text values as literals.
export const q = (identifier: string): string => `"${identifier.replaceAll('"', '""')}"`;

/** A list of text values as a SQL literal list, each quoted as PostgreSQL quotes a string: ('a', 'b'). */
export const textList = (values: readonly string[]): string =>
  `(${values.map((value) => `'${value.replaceAll("'", "''")}'`).join(", ")})`;
