// SQL text made safely from the schemas' names and values: an identifier (a table or column name) quoted
// as PostgreSQL quotes one, its double quotes doubled; a list of text values as literals.
export const q = (identifier: string): string => `"${identifier.replaceAll('"', '""')}"`;

/** A text value as a SQL string literal, its single quotes doubled: 'it''s'. */
export const textLiteral = (value: string): string => `'${value.replaceAll("'", "''")}'`;

/** A list of text values as a SQL literal list: ('a', 'b'). */
export const textList = (values: readonly string[]): string => `(${values.map(textLiteral).join(", ")})`;
