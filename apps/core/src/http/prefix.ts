/** Where the API is mounted; every versioned route and document link starts with it. */
export const API_PREFIX = '/api/v1.0';
