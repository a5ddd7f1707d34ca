import { describe, expect, it } from 'vitest';
import { render, unknownVariables } from './render.js';

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
