/** The illustration of the admin's empty states, served by the app itself (public/). */
export const EMPTY_STATE_IMAGE = '/empty-state.svg';
