/** A member's name as the admin shows it: first and last name, whichever are known. */
export const fullName = (m: { firstName: string | null; lastName: string | null }) => [m.firstName, m.lastName].filter(Boolean).join(' ');
