/** Texts Simplified Chinese writes exactly as English does (protocol names): only these may stay as in English. */
export default new Set(['HTTP']);
