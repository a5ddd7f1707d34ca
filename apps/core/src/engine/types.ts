import type { Knex } from 'knex';
import type { EventCode } from '../events/codes.js';
import type { AccountInfo, RequestContext } from '../records/context.js';
import type { Row } from '../records/resource.js';
import type { RecordService } from '../records/service.js';

export type LogKind = 'streak' | 'challenge' | 'mission';

/** Everything one log's transaction works with. */
export interface Tx {
  trx: Knex.Transaction;
  ctx: RequestContext;
  records: RecordService;
  account: AccountInfo;
  now: Date;
}

/** One log to aggregate, as every kind of definition receives it. */
export interface LogInput {
  definition: Row;
  memberId: string;
  activityAt: Date;
  /** What the log adds: 1 for count aggregation, its activityValue for sum. */
  value: number;
  /** The member's time zone, in which periods are counted. */
  zone: string;
  /** Live milestones of the definition, ascending by target. */
  milestones: Row[];
}

/** An event to emit about a progress record that the log or a sweep closed (broken or failed). */
export interface ClosedProgress {
  code: EventCode;
  progress: Row;
}

/** What aggregating one log did; the ingest pipeline turns it into the response and events. */
export interface Outcome {
  aggregated: boolean;
  progress: Row | null;
  /** Streak: the touched period's task; mission: the touched tasks. */
  taskProgress: Row[];
  achieved: Row[];
  nextMilestone: Row | null;
  milestoneRewardLogs: Row[];
  /** A mission's reward for completing every task. */
  rewardLog: Row | null;
  /** The codes this log emits itself, in order. */
  codes: EventCode[];
  /** Progress records the log closed before counting (emitted first, with sweep payloads). */
  closed: ClosedProgress[];
}

export const notAggregated = (closed: ClosedProgress[] = []): Outcome => ({
  aggregated: false,
  progress: null,
  taskProgress: [],
  achieved: [],
  nextMilestone: null,
  milestoneRewardLogs: [],
  rewardLog: null,
  codes: [],
  closed,
});
