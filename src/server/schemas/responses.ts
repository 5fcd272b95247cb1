/** What the server sends as it is: the answer schemas themselves are shared with the client (shared/answers.ts). */

/**
 * A body that is JSON already (a stored deal as it is stored): fastify sends a string as it is, never
 * through the serializer, so the route's success schema only documents it. Typed to pass the reply's type.
 */
export const preSerialized = (json: string): never => json as never;
