/** The notifications page: rules, templates and integrations. */
export const notifications = {
  title: 'Notifications',
  groups: { rules: 'Rules', templates: 'Templates', integrations: 'Integrations' },
};
