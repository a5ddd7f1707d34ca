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

  it('knows an inline partial in the block that defines it and the blocks within it, as Handlebars does, not outside', () => {
    const codes = (source: string) => templateIssues(source, []).map((i) => i.code);
    for (const source of [
      '{{#if $account_user}}{{#*inline "p"}}a{{/inline}}{{/if}}{{>p}}',
      '{{#each $account_user.tags}}{{#*inline "p"}}a{{/inline}}{{/each}}{{>p}}',
      '{{#if $account_user.none}}{{#*inline "p"}}a{{/inline}}{{else}}{{>p}}{{/if}}',
    ]) {
      expect(codes(source), source).toEqual(['unknown_partial']);
      expect(() => renders(source), source).toThrow(TemplateError);
    }
    for (const source of [
      '{{>p}}{{#*inline "p"}}a{{/inline}}',
      '{{#*inline "p"}}a{{/inline}}{{#if $account_user}}{{#each $account_user.tags}}{{>p}}{{/each}}{{/if}}',
      '{{#if $account_user}}{{#*inline "p"}}a{{/inline}}{{>p}}{{/if}}',
      '{{#*inline "q"}}b{{/inline}}{{#*inline "p"}}{{>q}}{{/inline}}{{>p}}',
    ]) {
      expect(codes(source), source).toEqual([]);
      expect(renders(source), source).toMatch(/^[ab]+$/);
    }
  });

  it('refuses, before parsing it, a template nested deeper than anyone writes or with a tag longer than one: the parser would hold the process', () => {
    const first = (source: string) => {
      const started = performance.now();
      const issues = templateIssues(source, []);
      return { issues, ms: performance.now() - started };
    };
    const deep = (n: number) => `{{lookup ${'(lookup '.repeat(n)}this${' "a")'.repeat(n)} "a"}}`;
    const blocks = (n: number) => `${'{{#a}}'.repeat(n)}x${'{{/a}}'.repeat(n)}`;
    const chain = (n: number) => `{{#if a}}x${Array.from({ length: n }, (_, i) => `{{else if b${i}}}y`).join('')}{{/if}}`;
    for (const [source, reason] of [
      [deep(3000), 'A tag runs over 2000 characters; write it shorter.'],
      [deep(60), 'Subexpressions nest more than 50 deep here.'],
      [blocks(3000), 'Blocks nest more than 50 deep here.'],
      [chain(3000), 'Blocks nest more than 50 deep here.'],
      [`{{${Array.from({ length: 10_000 }, () => 'a').join('.')}}}`, 'A tag runs over 2000 characters; write it shorter.'],
    ] as const) {
      const { issues } = first(source);
      expect(issues.map((i) => [i.code, i.reason])).toEqual([['template_syntax', reason]]);
      expect(() => renders(source)).toThrow(reason);
    }
    // Fifty levels are still a template; a comment may be as long as it likes.
    for (const source of [deep(24), blocks(50), chain(49), `{{!-- ${'x'.repeat(5000)} --}}{{$account_user.firstName}}`])
      expect(first(source).issues, source.slice(0, 40)).toEqual([]);
    // Unclosed tags and braces throughout are scanned once, not again from each.
    expect(first('{{'.repeat(30_000)).ms).toBeLessThan(1_000);
  });

  it('stops a render whose loops within loops turn too often, though they write nothing', () => {
    const nested = (n: number) => `${'{{#each @root.$account_user}}'.repeat(n)} ${'{{/each}}'.repeat(n)}`;
    const wide = { $account_user: Object.fromEntries(Array.from({ length: 12 }, (_, i) => [`k${i}`, i])) };
    expect(render(nested(2), wide, { escape: false })).toBe(' '.repeat(144));
    expect(() => render(nested(8), wide, { escape: false })).toThrow(
      "The template's loops take more than 100000 turns; loop within loops less.",
    );
  });
});
