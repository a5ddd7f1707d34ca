import { describe, expect, it } from 'vitest';
import { render, TemplateError, templateIssues, unknownVariables } from './render.js';

// What a preview warns of must be what renders empty: each case is rendered too, to show it.
const data = {
  $account_user: { firstName: 'Alex', tags: ['gold'] },
  $event_log: { payload: { streakLog: { streak: { name: 'Visits' } }, rewardLog: null } },
};
const renders = (source: string, partials: Record<string, string> = {}) =>
  render(source, data, { escape: false, partials: partials as never });

describe('unknownVariables', () => {
  it('names a path the data lacks, once, as written; under a null value nothing is known', () => {
    const source =
      '{{$account_user.firstname}} {{$account_user.firstname}} {{$account_user.firstName}} {{$event_log.payload.rewardLog.code}}';
    expect(unknownVariables(source, data)).toEqual(['$account_user.firstname']);
    expect(renders(source)).toBe('  Alex ');
  });

  it('looks up paths where Handlebars does: if keeps the context, each and with move into a value, ../ climbs out, @root reads the top', () => {
    const source = [
      '{{#if $account_user}}{{$account_user.nmae}}{{../x}}{{else if $nope}}{{$also}}{{/if}}',
      '{{#with $event_log.payload.streakLog}}{{streak.name}} {{whatever}} {{../$account_user.firstName}} {{../$account_user.nick}} {{../../y}} {{@root.$gone}}{{/with}}',
      '{{#each $account_user.tags}}{{this}}{{@index}}{{/each}}{{^$missing}}{{/$missing}}',
    ].join('');
    expect(unknownVariables(source, data)).toEqual([
      '$account_user.nmae',
      '../x',
      '$nope',
      '$also',
      '../$account_user.nick',
      '../../y',
      '@root.$gone',
      '$missing',
    ]);
    expect(renders(source)).toBe('Visits  Alex   gold0');
  });

  it('reads a string literal name and the arguments of helpers and partials, not helper names', () => {
    const source = '{{"firstnme"}} {{lookup $account_user "firstName"}} {{#unless (lookup $nope "x")}}-{{/unless}} {{> footer who=$whom}}';
    expect(unknownVariables(source, data, { footer: 'bye' })).toEqual(['firstnme', '$nope', '$whom']);
  });

  it('reads a partial placed in the top context as part of the template, and not one placed elsewhere or not placed', () => {
    const partials = { header: 'Hi {{$account_user.firstnme}}', footer: '{{name}}' };
    expect(unknownVariables('{{> header}}', data, partials)).toEqual(['$account_user.firstnme']);
    expect(renders('{{> header}}', partials)).toBe('Hi ');
    expect(unknownVariables('{{#with $event_log.payload.streakLog.streak}}{{> footer}}{{/with}}', data, partials)).toEqual([]);
    expect(renders('{{#with $event_log.payload.streakLog.streak}}{{> footer}}{{/with}}', partials)).toBe('Visits');
    expect(unknownVariables('no partial', data, partials)).toEqual([]);
  });

  it('reads nothing of a template that does not parse', () => {
    expect(unknownVariables('{{#if x}}', data)).toEqual([]);
  });
});

describe('templateIssues', () => {
  it('refuses at save what would fail or misbehave at render: log, Handlebars’ own hooks by any use, lookup without its two arguments', () => {
    const codes = (source: string) => templateIssues(source, []).map((i) => i.code);
    expect(codes('{{log "{\\"level\\":60}"}}hi')).toEqual(['unknown_helper']);
    expect(codes('{{log $account_user}}')).toEqual(['unknown_helper']);
    for (const source of [
      '{{helperMissing}}',
      '{{blockHelperMissing}}',
      '{{#helperMissing}}x{{/helperMissing}}',
      '{{x (blockHelperMissing)}}',
    ])
      expect(codes(source), source).toContain('unknown_helper');
    // A raw block would render nothing: there is no helper to call.
    expect(codes('{{{{raw}}}} {{$account_user.email}} {{{{/raw}}}}')).toEqual(['unknown_helper']);
    expect(codes('a\n  {{{{raw}}}}x{{{{/raw}}}}')).toEqual(['unknown_helper']);
    expect(codes('{{#if x}}{{{y}}}{{/if}}')).toEqual([]);
    expect(codes('{{lookup}}')).toEqual(['helper_usage']);
    expect(codes('{{lookup $account_user}}')).toEqual(['helper_usage']);
    expect(codes('{{lookup $account_user "firstName"}}')).toEqual([]);
    expect(renders('{{lookup $account_user "firstName"}}')).toBe('Alex');
    // What the check lets through renders; what it refuses would throw.
    for (const source of ['{{log "x"}}', '{{helperMissing}}', '{{lookup}}']) expect(() => renders(source), source).toThrow(TemplateError);
  });
});
