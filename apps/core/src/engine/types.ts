import type { Knex } from 'knex';
import type { EventCode } from '../events/codes.js';
import type { IssueTally } from '../observability/metrics.js';
import type { AccountInfo } from '../auth/authenticate.js';
import type { RequestContext } from '../records/context.js';
import type { KnownRows, LoadedRow } from '../records/fields.js';
import type { Records, Row } from '../records/resource.js';
import type { RecordColumns } from '../records/row-types.js';
import type { MilestoneRow } from '../schema/definitions.js';
import type { ChallengeProgressRow, MissionProgressRow, StreakProgressRow, TaskProgressRow } from '../schema/progress.js';
import type { RewardLogRow } from '../schema/rewards.js';
import type { WriteSet } from './writes.js';

export type LogKind = 'streak' | 'challenge' | 'mission';

/** Where a reward log comes from: a milestone of a progress, or a mission's completion. */
export interface RewardSource {
  rewardId: string | null;
  milestoneId: string | null;
  /** The milestone's target when it was reached: the reward log keeps it (engine/reverse.ts judges by it). */
  milestoneTargetValue?: number;
  linkedSchemaSlug: string;
  linkedSchemaRecordId: string;
  ownedById: string;
  periodKey: string | null;
  /** The progress whose milestone or completion this is; a recompute matches rewards to runs by it. */
  progressId: string;
  /** The definition's `rewardHoldDays`: with a hold the log is created pending (CONTRACT §17). */
  holdDays: number;
}

/**
 * Rows an attempt holds (read or written), by table, the latest of a row winning: its answer and
 * events serialize their joins from these instead of reading them again.
 */
export class HeldRows {
  private readonly tables = new Map<string, Map<string, LoadedRow>>();

  add(table: string, rows: readonly Row[]): void {
    let held = this.tables.get(table);
    if (!held) this.tables.set(table, (held = new Map()));
    // Merged: a row written since keeps what only its earlier read carried (a member's heldOutOf).
    for (const row of rows as readonly LoadedRow[]) held.set(row.id, { ...held.get(row.id), ...row });
  }

  has(table: string, id: string): boolean {
    return this.tables.get(table)?.has(id) ?? false;
  }

  get known(): KnownRows {
    return new Map([...this.tables].map(([table, rows]) => [table, [...rows.values()]]));
  }
}

/** Everything one attempt at aggregating a log works with. */
export interface Tx {
  /** Where reads go: the pool, or the transaction of a locked attempt. */
  trx: Knex;
  ctx: RequestContext;
  records: Records;
  account: AccountInfo;
  now: Date;
  /** The rows the log writes, all in one statement at the end. */
  writes: WriteSet;
  /** Whether the attempt runs in a transaction holding the member's lock on the definition. */
  locked: boolean;
  /** Rewards and coupons the attempt issued, counted if it commits. */
  issued: IssueTally;
  /** Set by a recompute: rewards its replay achieves are recorded here instead of issued. */
  replay?: RewardSource[];
  held?: HeldRows;
}

/**
 * Thrown by an optimistic attempt that must write before it ends (a reward takes a coupon from a
 * pool): the attempt goes on in a transaction under the member's lock (engine/ingest.ts).
 */
export class NeedsLock extends Error {
  constructor() {
    // A signal the attempt catches, never reported: a stack trace would only cost its capture.
    const { stackTraceLimit } = Error;
    Error.stackTraceLimit = 0;
    super('this log must be aggregated under the lock');
    Error.stackTraceLimit = stackTraceLimit;
  }
}

export type ProgressRow = StreakProgressRow | ChallengeProgressRow | MissionProgressRow;
/** Which table a progress row is of, told by the definition column only that table has. */
export const isStreakRun = (row: ProgressRow): row is StreakProgressRow => 'streak_id' in row;
export const isChallengeWindow = (row: ProgressRow): row is ChallengeProgressRow => 'challenge_id' in row;
export const isMissionRun = (row: ProgressRow): row is MissionProgressRow => 'mission_id' in row;
/** When a progress record started: a streak run's or mission's start, a challenge window's first counted log. */
export const startedAt = (row: ProgressRow): Date =>
  isStreakRun(row) ? row.streak_started_at : isMissionRun(row) ? row.mission_started_at : row.challenge_started_at;
/** A progress record's status, whichever its table. */
export const progressStatus = (row: ProgressRow): string =>
  isStreakRun(row) ? row.streak_progress_status : isMissionRun(row) ? row.mission_progress_status : row.challenge_progress_status;
/**
 * A log row. Its definition's id column is named after the kind (`streak_id`), which the log
 * resources' fields, keyed by kind, cannot give a type.
 */
export type LogRow = RecordColumns & Row;

/** One log to aggregate, as every kind of definition receives it (`D`: the definition's row). */
export interface LogInput<D> {
  definition: D;
  memberId: string;
  activityAt: Date;
  /** What the log adds: 1 for count aggregation, its activityValue for sum. */
  value: number;
  /** The member's time zone, in which periods are counted. */
  zone: string;
  /** Live milestones of the definition, ascending by target (a recompute's replay: every milestone). */
  milestones: MilestoneRow[];
  /** The member's progress on the definition, as the kind's STATE read returned it. */
  state: unknown;
  /**
   * A recompute's streak periods or challenge windows completed before it, with the target each was
   * completed under: a target raised since applies to the periods after (docs/api.md, "Editing a definition").
   */
  completedPeriods?: ReadonlyMap<string, number>;
}

/**
 * What aggregating a log of one kind reads besides the definition and the member: one SQL
 * expression, read in the same statement as they are, so that a log costs one read.
 */
export interface StateRead {
  sql: string;
  bindings(accountId: string, definitionId: string, memberId: string): Knex.RawBinding[];
}

/** Names the one in-progress run of a member on a definition (a partial unique index finds it). */
export const runIdentifier = (definitionId: string, memberId: string) => `${definitionId}:${memberId}`;

/**
 * An event about a progress record rather than a log (a break, a failure, a freeze), emitted with
 * the sweeps' payload: the progress as this step left it, plus `extra` keys, and the reward logs a
 * completion without a log issued, named as a log's response names them.
 */
export interface ProgressEvent<P extends ProgressRow = ProgressRow> {
  code: EventCode;
  progress: P;
  extra?: Record<string, unknown>;
  rewardLogs?: { milestones: RewardLogRow[]; reward: RewardLogRow | null };
}

/** Why a log did not count (CONTRACT §18), in the order the first that applies is named. */
export const NOT_AGGREGATED_REASONS = [
  'log_not_live',
  'definition_not_live',
  'member_not_live',
  'holdout',
  'outside_window',
  'period_closed',
  'period_completed',
  'no_matching_task',
  'mission_completed',
] as const;
export type NotAggregatedReason = (typeof NOT_AGGREGATED_REASONS)[number];

/** What aggregating one log did; the ingest pipeline turns it into the response and events. */
export interface Outcome {
  aggregated: boolean;
  /** Null when the log counted. */
  reason: NotAggregatedReason | null;
  progress: ProgressRow | null;
  /** Streak: the touched period's task; mission: the touched tasks. */
  taskProgress: TaskProgressRow[];
  /** Mission: every task of the progress, in the mission's order. */
  progressTasks: TaskProgressRow[];
  achieved: MilestoneRow[];
  nextMilestone: MilestoneRow | null;
  milestoneRewardLogs: RewardLogRow[];
  /** A mission's reward for completing every task. */
  rewardLog: RewardLogRow | null;
  /** The codes this log emits itself, in order. */
  codes: EventCode[];
  /** What the log settled before counting: breaks, failures, freezes (emitted first). */
  before: ProgressEvent[];
  /** What its counting earned the progress: a freeze (emitted after its own codes). */
  after: ProgressEvent[];
}

export const notAggregated = (reason: NotAggregatedReason, before: ProgressEvent[] = []): Outcome => ({
  aggregated: false,
  reason,
  progress: null,
  taskProgress: [],
  progressTasks: [],
  achieved: [],
  nextMilestone: null,
  milestoneRewardLogs: [],
  rewardLog: null,
  codes: [],
  before,
  after: [],
});
