/** Words Brazilian Portuguese writes as English does (loanwords, protocol names): a Portuguese text equal to its English one is only accepted when it is one of these. */
export default new Set(['Widget', 'Webhooks', 'webhooks', 'webhook', 'Status', 'E-mail', 'HTTP', 'Push', 'SMS', 'Chat']);
