/** Words every admin page uses: navigation, buttons, states. */
export const common = {
  nav: {
    dashboard: 'Dashboard',
    streaks: 'Streaks',
    challenges: 'Challenges',
    missions: 'Missions',
    leaderboards: 'Leaderboards',
    rewards: 'Rewards',
    members: 'Members',
    points: 'Points',
    tiers: 'VIP tiers',
    widget: 'Widget',
    webhooks: 'Webhooks',
    notifications: 'Notifications',
    dataRequests: 'Data requests',
  },
  save: 'Save',
  cancel: 'Cancel',
  discard: 'Discard',
  delete: 'Delete',
  create: 'Create',
  saved: 'Saved',
  created: 'Created',
  deleted: 'Deleted',
  confirmDelete: {
    title: 'Delete {name}?',
    body: "This can't be undone.",
  },
  show: 'Show',
  /** The heading, for screen readers, of a table's column of row actions. */
  actions: 'Actions',
  from: 'From',
  to: 'To',
  /** Under a date and time field: the browser's time zone, which the field is read in. */
  timeZone: 'Your time zone: {timezone}.',
  unavailable: {
    title: 'The loyalty service did not answer',
    body: 'This could not be loaded just now. Nothing you set up has changed; try again in a minute.',
    action: 'Try again',
  },
  back: 'Back',
  notFound: {
    title: 'Not found',
    body: 'This page does not exist, or what it showed has been deleted.',
    action: 'Go to the dashboard',
  },
  refused: {
    title: 'This page can’t do that',
    body: 'The address was asked for in a way it does not take. Open it from the app’s navigation.',
  },
  failed: {
    title: 'Something went wrong',
    body: 'This page could not be shown. Try again in a minute.',
  },
};
