/**
 * Words Spanish writes as English does (loanwords, product and protocol names): a Spanish text equal
 * to its English one is only accepted when it is one of these.
 */
export default new Set(['Widget', 'Webhooks', 'webhooks', 'webhook', 'HTTP', 'SMS', 'Chat', 'Push']);
