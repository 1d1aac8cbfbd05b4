// SQL text made safely: an identifier (a table or column name from the schemas) quoted as PostgreSQL
// quotes one, its double quotes doubled.
export const q = (identifier: string): string => `"${identifier.replaceAll('"', '""')}"`;
