/**
 * Words German writes as English does (loanwords, product and protocol names, API values shown as
 * they are): a German text equal to its English one is only accepted when it is one of these.
 */
export default new Set([
  'Widget',
  'Branding',
  'Webhooks',
  'Webhook',
  'Challenges',
  'Challenge',
  'Name',
  'Status',
  'Live',
  'HTTP',
  'Mission',
  'Code',
  'Codes',
  'Integration',
  'Domain',
]);
