import type { paths } from '@loyalty/client';

/** The core's analytics summary, as its OpenAPI document types it. */
export type AnalyticsSummary = paths['/analytics/summary']['get']['responses'][200]['content']['application/json']['data'];

/** The summary's points (CONTRACT §19): the range's entries by reason, and what members hold now. */
export type PointsFigures = AnalyticsSummary['points'];
