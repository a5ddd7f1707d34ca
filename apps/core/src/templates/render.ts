import Handlebars from 'handlebars';
import type { ErrorDetail } from '../errors.js';

/** One isolated Handlebars environment for merchant templates; compiled templates are cached. */
const hbs = Handlebars.create();
// `log` writes to the service's own output: a template could forge its log lines, or print a member's data there.
hbs.unregisterHelper('log');
const cache = new Map<string, HandlebarsTemplateDelegate>();
const CACHE_LIMIT = 1000;

/**
 * The partials an email body is rendered with (the linked header and footer). No other text gets
 * partials: subjects, push, SMS and chat texts render without any, and a header or footer that
 * placed one would place itself or the other.
 */
export const EMAIL_PARTIALS = ['header', 'footer'] as const;
export type EmailPartial = (typeof EMAIL_PARTIALS)[number];

/** Handlebars' hooks for missing helpers sit among its helpers but throw when a template names them, even as a variable. */
const HOOKS = new Set(['helperMissing', 'blockHelperMissing']);
/** The helpers templates may call: those of the environment `render` uses (Handlebars' built-ins). */
export const HELPERS: readonly string[] = Object.keys(hbs.helpers).filter((name) => !HOOKS.has(name));
/** Built-in helpers that throw at render time unless given this many arguments, and as blocks only. */
const BLOCK_HELPER_ARITY: Readonly<Record<string, number>> = { if: 1, unless: 1, with: 1, each: 1 };
/** Built-in helpers that throw at render time unless given this many arguments. */
const HELPER_ARITY: Readonly<Record<string, number>> = { lookup: 2 };

export interface RenderOptions {
  /** HTML-escape `{{values}}` (email HTML); plain texts are escaped by whoever displays them. */
  escape: boolean;
  partials?: Record<EmailPartial, string>;
}

function compiled(source: string, escape: boolean): HandlebarsTemplateDelegate {
  const key = `${escape ? 'h' : 't'}:${source}`;
  let template = cache.get(key);
  if (!template) {
    // Saved templates were checked; this keeps one stored before the check from holding the process.
    const nested = nestingIssue(source);
    if (nested) throw new TemplateError(nested.reason);
    template = hbs.compile(source, { noEscape: !escape, strict: false });
    if (cache.size >= CACHE_LIMIT) cache.delete(cache.keys().next().value!);
    cache.set(key, template);
  }
  return template;
}

/**
 * A template that cannot render whatever the data: an unknown helper or partial, a block helper
 * misused. Callers tell it from other failures: sending it again cannot succeed.
 */
export class TemplateError extends Error {
  /** The template's field that failed (`title`, `data.url`), when the caller rendering it named it. */
  field?: string;
}

/**
 * The most one render may write: an `each` within an `each` multiplies its text (five nested loops
 * over a few hundred characters came to 70 MB, rendering for seconds while every request waited).
 * An email is far below it; what `each` writes is counted as it is written, so a render stops at it.
 */
const RENDER_LIMIT_CHARS = 1_000_000;
const tooLong = () => new TemplateError(`The template renders more than ${RENDER_LIMIT_CHARS} characters.`);
/**
 * The most turns all of one render's `each` loops may take: loops within loops over nothing but
 * white space write nothing, yet seven of them over a dozen values ran for half a minute.
 */
const RENDER_LIMIT_TURNS = 100_000;
/** What the render in progress has written through `each`, and the turns its loops took (rendering is synchronous: one at a time). */
let written: number | null = null;
let turns = 0;
const builtinEach = hbs.helpers.each!;
hbs.registerHelper('each', function (this: unknown, context: unknown, options: Handlebars.HelperOptions) {
  const fn = options.fn;
  const counted = (item: unknown, runtime?: Handlebars.RuntimeOptions) => {
    if (written !== null && ++turns > RENDER_LIMIT_TURNS)
      throw new TemplateError(`The template's loops take more than ${RENDER_LIMIT_TURNS} turns; loop within loops less.`);
    const text = fn(item, runtime);
    if (written !== null && (written += text.length) > RENDER_LIMIT_CHARS) throw tooLong();
    return text;
  };
  return builtinEach.call(this, context, { ...options, fn: Object.assign(counted, fn) });
});

/** Renders a template; a missing variable renders empty, never throws (a broken template, or one rendering more than RENDER_LIMIT_CHARS, throws TemplateError). */
export function render(source: string, data: Record<string, unknown>, options: RenderOptions): string {
  written = 0;
  turns = 0;
  try {
    const text = compiled(source, options.escape)(data, { partials: options.partials, allowProtoPropertiesByDefault: false });
    if (text.length > RENDER_LIMIT_CHARS) throw tooLong();
    return text;
  } catch (err) {
    if (err instanceof TemplateError) throw err;
    throw new TemplateError((err instanceof Error ? err.message : String(err)).split('\n')[0]);
  } finally {
    written = null;
  }
}

/** What keeps a template from rendering, found when it is saved; lines and columns count from 1. */
export interface TemplateIssue {
  code: 'template_syntax' | 'unknown_partial' | 'unknown_helper' | 'helper_usage';
  line: number;
  column: number;
  /** What is wrong, for a person: no parser token names. */
  reason: string;
}

/** How the parser's tokens read in a message. */
const TOKEN_TEXT: Readonly<Record<string, string>> = {
  EOF: 'end of the template',
  CLOSE: '}}',
  CLOSE_UNESCAPED: '}}}',
  CLOSE_RAW_BLOCK: '}}}}',
  CLOSE_SEXPR: ')',
  OPEN_SEXPR: '(',
  OPEN: '{{',
  OPEN_UNESCAPED: '{{{',
  OPEN_BLOCK: '{{#',
  OPEN_ENDBLOCK: '{{/…}}',
  OPEN_INVERSE: '{{^',
  OPEN_INVERSE_CHAIN: '{{else …}}',
  INVERSE: '{{else}}',
  OPEN_PARTIAL: '{{>',
  OPEN_PARTIAL_BLOCK: '{{#>',
  OPEN_BLOCK_PARAMS: 'as |',
  CLOSE_BLOCK_PARAMS: '|',
  EQUALS: '=',
  SEP: '.',
};
/** Tokens that begin a value: listed in a message as one "a name or value". */
const VALUE_TOKENS = new Set(['ID', 'STRING', 'NUMBER', 'BOOLEAN', 'UNDEFINED', 'NULL', 'DATA', 'OPEN_SEXPR']);
const CLOSING_TOKENS = ['CLOSE', 'CLOSE_UNESCAPED', 'CLOSE_SEXPR', 'CLOSE_RAW_BLOCK'];

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null;

/**
 * The token the parser failed on, kept (its 1-based line, 0-based column and text) in the parser's
 * lexer: parsing is synchronous. Handlebars' types leave the parser out, so its shape is checked.
 */
function failedToken(): { line: number; column: number; text: string } {
  const parser: unknown = 'Parser' in Handlebars ? Handlebars.Parser : undefined;
  const lexer = isObject(parser) ? parser.lexer : undefined;
  const loc = isObject(lexer) ? lexer.yylloc : undefined;
  if (!isObject(lexer) || !isObject(loc) || typeof loc.first_line !== 'number' || typeof loc.first_column !== 'number') {
    throw new Error('The Handlebars parser keeps no position of its failure');
  }
  return { line: loc.first_line, column: loc.first_column, text: String(lexer.yytext) };
}

/** The offset of a 1-based line and 0-based column in the source. */
function offsetOf(source: string, line: number, column: number): number {
  let offset = 0;
  for (let l = 1; l < line; l++) offset = source.indexOf('\n', offset) + 1;
  return offset + column;
}

/** The position of an offset as a 1-based line and column. */
function positionOf(source: string, offset: number): { line: number; column: number } {
  const before = source.slice(0, offset);
  return { line: before.split('\n').length, column: offset - before.lastIndexOf('\n') };
}

/** The innermost block left open at the end of the source, by its tags (comments and raw blocks aside). */
function unclosedBlock(source: string): { name: string; offset: number } | undefined {
  const stack: { name: string; offset: number }[] = [];
  const tags = /\{\{!--[\s\S]*?--\}\}|\{\{![\s\S]*?\}\}|\{\{~?\s*(#>|#\*|#|\^|\/)\s*([^\s}~()]+)/g;
  for (const m of source.matchAll(tags)) {
    if (!m[1]) continue;
    if (m[1] === '/') stack.pop();
    else stack.push({ name: m[2]!, offset: m.index });
  }
  return stack.at(-1);
}

/** How deep blocks (an `{{else if}}` chain counts each link) and subexpressions may nest, and how long one tag may be. */
const NESTING_LIMIT = 50;
const TAG_LIMIT_CHARS = 2000;

/**
 * A template nested deeper, or with a longer tag, than anyone writes: Handlebars' parser takes
 * time growing faster than the depth (3,000 nested subexpressions held the process for 20 s, then
 * overflowed the stack), and a path of thousands of parts overflows it when rendered. Found by
 * scanning the tags before parsing; comments are skipped.
 */
function nestingIssue(source: string): TemplateIssue | undefined {
  const blocks: number[] = [];
  let depth = 0;
  // A scan from tag to tag, each read once (a regular expression could go back over the text).
  for (let from = source.indexOf('{{'); from >= 0;) {
    const comment = source.startsWith('{{!--', from) ? '--}}' : source.startsWith('{{!', from) ? '}}' : undefined;
    const close = source.indexOf(comment ?? '}}', from + 2);
    if (close < 0) break;
    const next = () => source.indexOf('{{', close + 2);
    if (comment) {
      from = next();
      continue;
    }
    const content = source.slice(from + 2, close);
    const at = () => positionOf(source, from);
    if (content.length > TAG_LIMIT_CHARS)
      return { code: 'template_syntax', ...at(), reason: `A tag runs over ${TAG_LIMIT_CHARS} characters; write it shorter.` };
    let open = 0;
    for (const c of content) {
      if (c === '(' && ++open > NESTING_LIMIT)
        return { code: 'template_syntax', ...at(), reason: `Subexpressions nest more than ${NESTING_LIMIT} deep here.` };
      if (c === ')') open -= 1;
    }
    const tag = /^[{~\s]*([#^/]|else\b)?\s*(\S)?/.exec(content)!;
    if (tag[1] === '/') depth -= blocks.pop() ?? 0;
    else if (tag[1] === '#' || (tag[1] === '^' && tag[2] !== undefined)) {
      blocks.push(1);
      depth += 1;
    } else if (tag[1] === 'else' && tag[2] !== undefined && blocks.length) {
      blocks[blocks.length - 1]! += 1;
      depth += 1;
    }
    if (depth > NESTING_LIMIT) return { code: 'template_syntax', ...at(), reason: `Blocks nest more than ${NESTING_LIMIT} deep here.` };
    from = next();
  }
  return undefined;
}

/** A parse failure as a person would describe it, at the place it happened. */
function syntaxIssue(source: string, err: Error): TemplateIssue {
  const message = err.message;
  // A block closed by another block's tag: Handlebars' exception carries the opening block's position.
  const mismatch = /^(\S+) doesn't match (\S+)/.exec(message);
  if (mismatch && 'lineNumber' in err && typeof err.lineNumber === 'number') {
    const [, open, close] = mismatch;
    const column = 'column' in err && typeof err.column === 'number' ? err.column : 0;
    const at = positionOf(source, source.lastIndexOf('{{', offsetOf(source, err.lineNumber, column)));
    return { code: 'template_syntax', ...at, reason: `{{#${open}}} is closed by {{/${close}}}; close it with {{/${open}}}.` };
  }
  const token = failedToken();
  const { line, column } = token;
  const at = { line, column: column + 1 };
  const offset = offsetOf(source, line, column);
  const parse = /Expecting (.*), got '(\w+)'$/.exec(message);
  if (!parse) {
    const text = source.slice(offset).split('\n')[0]!.slice(0, 20);
    return { code: 'template_syntax', ...at, reason: `Handlebars cannot read "${text}".` };
  }
  const expected = parse[1]!.split(', ').map((t) => t.slice(1, -1));
  const got = parse[2]!;
  if (got === 'EOF' && expected.includes('OPEN_ENDBLOCK')) {
    const open = unclosedBlock(source);
    if (open) {
      const name = open.name.replace(/^[#>*^]+/, '');
      return { code: 'template_syntax', ...positionOf(source, open.offset), reason: `{{#${name}}} is never closed: add {{/${name}}}.` };
    }
  }
  if (got === 'OPEN_ENDBLOCK' && !expected.includes('OPEN_ENDBLOCK')) {
    const name = /^\{\{~?\/\s*([^\s}~]+)/.exec(source.slice(offset))?.[1] ?? '';
    return { code: 'template_syntax', ...at, reason: `{{/${name}}} closes a block that is not open.` };
  }
  const tag = source.lastIndexOf('{{', offset);
  if ((got === 'INVALID' || got === 'EOF') && tag >= 0 && !source.slice(tag).includes('}}')) {
    return { code: 'template_syntax', ...positionOf(source, tag), reason: 'This tag is never closed with }}.' };
  }
  const found = got === 'INVALID' ? `"${/^\S{1,20}/.exec(source.slice(offset))?.[0] ?? token.text}"` : (TOKEN_TEXT[got] ?? got);
  // After a tag's contents, the closing delimiter is what was missing; elsewhere list what may come.
  const closing = expected.filter((t) => CLOSING_TOKENS.includes(t));
  const wanted = closing.length ? closing : expected;
  const words = [
    ...new Set(wanted.map((t) => (VALUE_TOKENS.has(t) ? 'a name or value' : (TOKEN_TEXT[t] ?? null))).filter((w) => w !== null)),
  ];
  const hint = words.length ? `; expected ${words.join(' or ')}` : '';
  return { code: 'template_syntax', ...at, reason: `Unexpected ${found}${hint}.` };
}

type Call = hbs.AST.MustacheStatement | hbs.AST.BlockStatement | hbs.AST.SubExpression;

/** A call's name as written: a path's text, or a literal's value (`{{"name" x}}`, `{{true}}`). */
const nameOf = (path: hbs.AST.PathExpression | hbs.AST.Literal): unknown => ('original' in path ? path.original : undefined);
const isStringLiteral = (node: hbs.AST.Expression | undefined): node is hbs.AST.StringLiteral => node?.type === 'StringLiteral';

const list = (names: readonly string[]) => (names.length ? names.join(', ') : 'none');

/**
 * Everything in a template that would fail when it renders: a syntax error (then nothing else is
 * looked at), else each partial that is neither in `partials` nor defined inline, each call of a
 * helper that does not exist (a name with arguments, or a subexpression) and each built-in block
 * helper given the wrong number of arguments. `{{name}}` and `{{#name}}` without arguments are
 * variables and sections, never errors; a partial block (`{{#> name}}…{{/name}}`) has its fallback.
 */
export function templateIssues(source: string, partials: readonly string[]): TemplateIssue[] {
  const nested = nestingIssue(source);
  if (nested) return [nested];
  let program: hbs.AST.Program;
  try {
    program = hbs.parse(source);
  } catch (err) {
    if (!(err instanceof Error)) throw err;
    return [syntaxIssue(source, err)];
  }
  const issues: TemplateIssue[] = [];
  // Inline partials are known in the block that defines them and the blocks within it, not outside.
  const scopes: Set<string>[] = [];
  const usedPartials: { name: string | undefined; node: hbs.AST.Node; visible: boolean }[] = [];
  const at = (node: hbs.AST.Node) => ({ line: node.loc.start.line, column: node.loc.start.column + 1 });

  // A raw block (`{{{{name}}}}…{{{{/name}}}}`) calls its helper whatever it is given, and there is no
  // helper to call: it would render nothing where its text was meant to show as written.
  const lines = source.split('\n');
  const isRawBlock = (node: Call) => lines[node.loc.start.line - 1]?.startsWith('{{{{', node.loc.start.column) === true;

  const call = (node: Call) => {
    const name = String(nameOf(node.path));
    if (node.type === 'BlockStatement' && isRawBlock(node)) {
      issues.push({
        code: 'unknown_helper',
        ...at(node),
        reason: `Raw blocks need a helper; "${name}" is none. The helpers are ${list(HELPERS)}.`,
      });
      return;
    }
    if (node.path.type === 'PathExpression' && HOOKS.has(name)) {
      issues.push({ code: 'unknown_helper', ...at(node), reason: `"${name}" is Handlebars' own; the helpers are ${list(HELPERS)}.` });
      return;
    }
    const known = node.path.type === 'PathExpression' && HELPERS.includes(name);
    if (!known) {
      // Without arguments a name is a variable (or a section), which renders empty when absent.
      if (node.type === 'SubExpression' || node.params.length > 0 || node.hash?.pairs.length) {
        issues.push({ code: 'unknown_helper', ...at(node), reason: `Unknown helper "${name}"; the helpers are ${list(HELPERS)}.` });
      }
      return;
    }
    const args = HELPER_ARITY[name];
    if (args !== undefined && node.params.length !== args) {
      issues.push({ code: 'helper_usage', ...at(node), reason: `"${name}" takes exactly ${args} arguments, not ${node.params.length}.` });
    }
    const arity = BLOCK_HELPER_ARITY[name];
    if (arity === undefined) return;
    if (node.type !== 'BlockStatement') {
      issues.push({ code: 'helper_usage', ...at(node), reason: `"${name}" is a block helper: write {{#${name} …}}…{{/${name}}}.` });
    } else if (node.params.length !== arity) {
      issues.push({
        code: 'helper_usage',
        ...at(node),
        reason: `{{#${name}}} takes exactly ${arity} argument, not ${node.params.length}.`,
      });
    }
  };

  const decorator = (node: hbs.AST.Decorator | hbs.AST.DecoratorBlock) => {
    // An inline partial is taken into its block's scope as the block starts (`Program`).
    if (nameOf(node.path) !== 'inline' || !isStringLiteral(node.params[0]))
      issues.push({
        code: 'unknown_helper',
        ...at(node),
        reason: `Unknown decorator "${nameOf(node.path)}"; only {{#*inline "name"}} is available.`,
      });
  };

  // Handlebars' visitor walks every statement and expression, dispatching on each node's type.
  const check = new (class extends Handlebars.Visitor {
    override Program(node: hbs.AST.Program) {
      // A block's inline partials are defined when it starts, wherever in it they are written.
      const own = new Set<string>();
      scopes.push(own);
      for (const statement of node.body)
        if (statement.type === 'DecoratorBlock') {
          const block = statement as hbs.AST.DecoratorBlock;
          const name = block.params[0];
          if (nameOf(block.path) === 'inline' && isStringLiteral(name)) own.add(name.value);
        }
      super.Program(node);
      scopes.pop();
    }
    override MustacheStatement(node: hbs.AST.MustacheStatement) {
      call(node);
      super.MustacheStatement(node);
    }
    override BlockStatement(node: hbs.AST.BlockStatement) {
      call(node);
      super.BlockStatement(node);
    }
    override SubExpression(node: hbs.AST.SubExpression) {
      call(node);
      super.SubExpression(node);
    }
    override Decorator(node: hbs.AST.Decorator) {
      decorator(node);
      super.Decorator(node);
    }
    override DecoratorBlock(node: hbs.AST.DecoratorBlock) {
      decorator(node);
      super.DecoratorBlock(node);
    }
    override PartialStatement(node: hbs.AST.PartialStatement) {
      const name = node.name.type === 'SubExpression' ? undefined : node.name.original;
      usedPartials.push({ name, node, visible: name !== undefined && scopes.some((scope) => scope.has(name)) });
      super.PartialStatement(node);
    }
  })();
  check.accept(program);

  issues.push(...placementIssues(program));
  for (const { name, node, visible } of usedPartials) {
    if (name !== undefined && (partials.includes(name) || visible)) continue;
    const available = `the partials here are ${list(partials)}`;
    const reason = name === undefined ? `A partial's name must be written out; ${available}.` : `Unknown partial "${name}"; ${available}.`;
    issues.push({ code: 'unknown_partial', ...at(node), reason });
  }
  return issues.sort((a, b) => a.line - b.line || a.column - b.column);
}

/** The most places inline partials may be put in one template, counting those within them: each placement copies a text. */
const PARTIAL_PLACEMENTS_LIMIT = 1000;

type PartialCall = { name: string; node: hbs.AST.Node };

/**
 * Inline partials that would never finish rendering: one that places itself, directly or through
 * others, and partials placing partials so many times over (ten placing ten placing ten…) that the
 * text doubles out of all measure. Counted on the syntax tree, each inline partial once.
 */
function placementIssues(program: hbs.AST.Program): TemplateIssue[] {
  const defined = new Map<string, { node: hbs.AST.Node; calls: PartialCall[] }>();
  const walk = (block: hbs.AST.Program | undefined, calls: PartialCall[]): void => {
    for (const node of block?.body ?? []) {
      if (node.type === 'BlockStatement') {
        walk((node as hbs.AST.BlockStatement).program, calls);
        walk((node as hbs.AST.BlockStatement).inverse, calls);
      } else if (node.type === 'PartialStatement' || node.type === 'PartialBlockStatement') {
        const partial = node as hbs.AST.PartialStatement | hbs.AST.PartialBlockStatement;
        if (partial.name.type === 'PathExpression') calls.push({ name: partial.name.original, node });
        if (node.type === 'PartialBlockStatement') walk((node as hbs.AST.PartialBlockStatement).program, calls);
      } else if (node.type === 'DecoratorBlock') {
        const name = (node as hbs.AST.DecoratorBlock).params[0];
        const own: PartialCall[] = [];
        if (isStringLiteral(name)) defined.set(name.value, { node, calls: own });
        walk((node as hbs.AST.DecoratorBlock).program, own);
      }
    }
  };
  const top: PartialCall[] = [];
  walk(program, top);
  const at = (node: hbs.AST.Node) => ({ line: node.loc.start.line, column: node.loc.start.column + 1 });
  const issues: TemplateIssue[] = [];
  const counted = new Map<string, number>();
  const open = new Set<string>();
  /** How many placements one placement of `name` makes, itself included; Infinity for one that places itself. */
  const placements = (name: string): number => {
    const definition = defined.get(name);
    if (!definition) return 1;
    const known = counted.get(name);
    if (known !== undefined) return known;
    if (open.has(name)) return Infinity;
    open.add(name);
    const total = 1 + definition.calls.reduce((sum, call) => Math.min(sum + placements(call.name), Infinity), 0);
    open.delete(name);
    // Said once, at the partial where the circle closes: the others on it are endless through it.
    if (total === Infinity && !issues.length)
      issues.push({ code: 'helper_usage', ...at(definition.node), reason: `The partial "${name}" places itself, so it never ends.` });
    counted.set(name, total);
    return total;
  };
  let total = 0;
  for (const call of top) {
    total += placements(call.name);
    if (total > PARTIAL_PLACEMENTS_LIMIT && total !== Infinity) {
      issues.push({
        code: 'helper_usage',
        ...at(call.node),
        reason: `Partials are placed more than ${PARTIAL_PLACEMENTS_LIMIT} times over here; place fewer within each other.`,
      });
      break;
    }
  }
  return issues;
}

/**
 * What would keep the named templated fields of a record about to be written from rendering:
 * syntax, unknown partials (only `partials` are available) and helpers, each with its line and
 * column. Strings and string arrays are checked; stored per-language maps (the untouched side of an
 * update) were checked when written.
 */
export function templateErrors(
  record: Record<string, unknown>,
  fields: readonly string[],
  partials: readonly string[] = [],
): ErrorDetail[] {
  return fields.flatMap((name) => {
    const value = record[name];
    const texts: [string, unknown][] = Array.isArray(value) ? value.map((v, i) => [`${name}[${i}]`, v]) : [[name, value]];
    return texts.flatMap(([path, text]) =>
      typeof text !== 'string'
        ? []
        : templateIssues(text, partials).map(({ code, line, column, reason }) => ({
            field: path,
            code,
            line,
            column,
            message: `Line ${line}, column ${column}: ${reason}`,
          })),
    );
  });
}

/** Whether `data` has the value at `parts`; under a null there is no telling, so it counts as had. */
function has(data: unknown, parts: readonly string[]): boolean {
  let value = data;
  for (const part of parts) {
    if (value === null) return true;
    if (value === undefined || !Object.hasOwn(Object(value), part)) return false;
    value = (value as Record<string, unknown>)[part];
  }
  return true;
}

/**
 * The variables a template reads that `data` lacks (a missing variable renders empty), each once as
 * written. A path is looked up where Handlebars would: `each`, `with` and sections move into one
 * of the data's values (which the data cannot say, so paths read there are not looked at), `if`
 * and `unless` do not, `../` climbs out of them (above the top, nothing is read) and `@root.`
 * reads the top. A partial of `partials` placed in the top context is read as part of the
 * template. A template that does not parse reads nothing (its save says why).
 */
export function unknownVariables(source: string, data: Record<string, unknown>, partials: Record<string, string> = {}): string[] {
  const unknown = new Set<string>();
  /** Reads a path in the context `frame` levels below the top (0 is the top). */
  const read = (path: hbs.AST.PathExpression, frame: number) => {
    if (path.data) {
      if (path.parts[0] === 'root' && path.parts.length > 1 && !has(data, path.parts.slice(1))) unknown.add(path.original);
      return;
    }
    const target = frame - path.depth;
    if (target < 0 || (target === 0 && path.parts.length && !has(data, path.parts))) unknown.add(path.original);
  };
  const expression = (node: hbs.AST.Expression, frame: number) => {
    if (node.type === 'PathExpression') read(node as hbs.AST.PathExpression, frame);
    else if (node.type === 'SubExpression') call(node as hbs.AST.SubExpression, frame);
  };
  const args = (node: { params: hbs.AST.Expression[]; hash?: hbs.AST.Hash }, frame: number) => {
    for (const param of [...node.params, ...(node.hash?.pairs.map((pair) => pair.value) ?? [])]) expression(param, frame);
  };
  const isHelper = (node: Call) => node.path.type === 'PathExpression' && HELPERS.includes(String(nameOf(node.path)));
  const call = (node: Call, frame: number) => {
    args(node, frame);
    // A name without arguments that is no helper is a variable (or a section's value); `{{"name"}}` too.
    if (node.type === 'SubExpression' || node.params.length || node.hash?.pairs.length || isHelper(node)) return;
    if (node.path.type === 'PathExpression') read(node.path as hbs.AST.PathExpression, frame);
    else if (node.path.type === 'StringLiteral' && frame === 0 && !has(data, [(node.path as hbs.AST.StringLiteral).value]))
      unknown.add((node.path as hbs.AST.StringLiteral).original);
  };
  const placed = new Set<string>();
  const statements = (block: hbs.AST.Program | undefined, frame: number): void => {
    for (const node of block?.body ?? []) {
      if (node.type === 'MustacheStatement') call(node as hbs.AST.MustacheStatement, frame);
      else if (node.type === 'BlockStatement') {
        const section = node as hbs.AST.BlockStatement;
        call(section, frame);
        const keeps = isHelper(section) && ['if', 'unless'].includes(String(nameOf(section.path)));
        statements(section.program, keeps ? frame : frame + 1);
        statements(section.inverse, frame);
      } else if (node.type === 'PartialStatement' || node.type === 'PartialBlockStatement') {
        const partial = node as hbs.AST.PartialStatement | hbs.AST.PartialBlockStatement;
        args(partial, frame);
        const name = partial.name.type === 'PathExpression' ? partial.name.original : undefined;
        // Without a context argument a partial reads the context it is placed in.
        if (name !== undefined && Object.hasOwn(partials, name) && !partial.params.length && frame === 0 && !placed.has(name)) {
          placed.add(name);
          statements(parsed(partials[name]!), 0);
        }
        if (node.type === 'PartialBlockStatement') statements((node as hbs.AST.PartialBlockStatement).program, frame);
      }
    }
  };
  statements(parsed(source), 0);
  return [...unknown];
}

/** A template's syntax tree; none for one that does not parse. */
function parsed(source: string): hbs.AST.Program | undefined {
  try {
    return hbs.parse(source);
  } catch {
    return undefined;
  }
}
