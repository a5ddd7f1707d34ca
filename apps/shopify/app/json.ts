/** Narrowing what arrives as JSON (webhook payloads, Flow properties, event payloads) before it is read. */

export type JsonObject = Record<string, unknown>;

export const isJsonObject = (value: unknown): value is JsonObject => typeof value === 'object' && value !== null && !Array.isArray(value);

/** The value if it is an object, else an empty one, so optional nesting reads as absent. */
export const objectOf = (value: unknown): JsonObject => (isJsonObject(value) ? value : {});
