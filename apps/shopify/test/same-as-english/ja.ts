/** Words Japanese writes as English does (protocol and channel names): a Japanese text equal to its English one is only accepted when it is one of these. */
export default new Set(['HTTP', 'SMS']);
