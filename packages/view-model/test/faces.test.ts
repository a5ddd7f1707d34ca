import type { paths, Schema } from '@loyalty/client';
import { describe, expectTypeOf, it } from 'vitest';
import type {
  ChallengeProgress,
  Definition,
  FloatingWidget,
  Leaderboard,
  Member,
  MilestoneReward,
  MissionProgress,
  PointEntry,
  PointsSetting,
  Redemption,
  Reward,
  RewardLog,
  Standings,
  StreakProgress,
  Template,
  Theme,
  Tier,
} from '../src/model.js';
import type { SocialNetwork } from '../src/social.js';

/**
 * A face agrees with a record of the document when each field it reads is one of the record's
 * fields, and a scalar field holds a value the document allows there (a face may be narrower: it
 * reads only what a public read shows). Checked by the compiler: a field renamed or retyped in the
 * core fails `pnpm typecheck` here, through the typed client generated from its OpenAPI document.
 */
type Agrees<Face, Doc> = {
  [K in keyof Face]-?: K extends keyof Doc
    ? NonNullable<Face[K]> extends object
      ? true
      : Exclude<Face[K], undefined> extends Doc[K] | null
        ? true
        : false
    : false;
}[keyof Face];

type StandingsDoc = paths['/schema/leaderboard/record/{id}/standings']['get']['responses'][200]['content']['application/json']['data'];
type RedeemDoc = paths['/schema/reward/record/{id}/action/redeem']['post']['responses'][200]['content']['application/json']['data'];
type FollowBody = NonNullable<
  paths['/schema/points_setting/record/{id}/action/follow']['post']['requestBody']
>['content']['application/json'];

describe('the faces the widget and the Rewards page read', () => {
  it('name the fields of the records the core serves, with the types it serves', () => {
    expectTypeOf<Agrees<Template, Schema<'Template'>>>().toEqualTypeOf<true>();
    expectTypeOf<Agrees<Theme, Schema<'Theme'>>>().toEqualTypeOf<true>();
    expectTypeOf<Agrees<FloatingWidget, Schema<'FloatingWidget'>>>().toEqualTypeOf<true>();
    expectTypeOf<Agrees<Definition, Schema<'Streak'> & Schema<'Challenge'> & Schema<'Mission'>>>().toEqualTypeOf<true>();
    expectTypeOf<Agrees<StreakProgress, Schema<'StreakProgress'>>>().toEqualTypeOf<true>();
    expectTypeOf<Agrees<ChallengeProgress, Schema<'ChallengeProgress'>>>().toEqualTypeOf<true>();
    expectTypeOf<Agrees<MissionProgress, Schema<'MissionProgress'>>>().toEqualTypeOf<true>();
    expectTypeOf<Agrees<RewardLog, Schema<'RewardLog'>>>().toEqualTypeOf<true>();
    expectTypeOf<Agrees<Leaderboard, Schema<'Leaderboard'>>>().toEqualTypeOf<true>();
    expectTypeOf<Agrees<Standings, StandingsDoc>>().toEqualTypeOf<true>();
    expectTypeOf<Agrees<PointsSetting, Schema<'PointsSetting'>>>().toEqualTypeOf<true>();
    expectTypeOf<Agrees<PointEntry, Schema<'PointEntry'>>>().toEqualTypeOf<true>();
    expectTypeOf<Agrees<Reward, Schema<'Reward'>>>().toEqualTypeOf<true>();
    expectTypeOf<Agrees<MilestoneReward, Schema<'Reward'>>>().toEqualTypeOf<true>();
    expectTypeOf<Agrees<Tier, Schema<'Tier'>>>().toEqualTypeOf<true>();
    expectTypeOf<Agrees<Member, Schema<'AccountUser'>>>().toEqualTypeOf<true>();
    expectTypeOf<Agrees<Redemption, RedeemDoc>>().toEqualTypeOf<true>();
    // The networks the storefront offers are the ones the core's follow action takes.
    expectTypeOf<SocialNetwork>().toEqualTypeOf<FollowBody['network']>();
  });
});
