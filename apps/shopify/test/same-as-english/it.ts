/** Words Italian writes as English does (loanwords, protocol names): only these may equal their English text. */
export default new Set(['Widget', 'webhook', 'Email', 'SMS', 'Chat', 'HTTP']);
