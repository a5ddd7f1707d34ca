/** The statuses the members list can be narrowed to: those taking part, and those the shop paused (left out by a tag). */
export const MEMBER_STATUSES = ['live', 'paused'] as const;
export type MemberStatus = (typeof MEMBER_STATUSES)[number];

/** A `status` query parameter as a status to narrow the list to; anything else lists every member. */
export const memberStatusOf = (value: string | null): MemberStatus | null => MEMBER_STATUSES.find((status) => status === value) ?? null;
