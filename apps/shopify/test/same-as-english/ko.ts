/** Texts Korean writes exactly as English does (protocol and channel names): only these may equal their English text. */
export default new Set(['HTTP', 'SMS']);
