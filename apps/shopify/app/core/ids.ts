const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Whether a value is shaped like the core's record ids (UUIDs): what an address's id must be before anything reads by it. */
export const isRecordId = (value: string): boolean => UUID.test(value);
