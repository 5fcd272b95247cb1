/** JSON strings sent as they are; the schema documents them. */
export const preSerialized = (json: string): never => json as never;
