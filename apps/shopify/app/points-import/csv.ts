/**
 * A file of balances exported from another loyalty app, as spreadsheets and those apps write one:
 * a header row naming the columns (in any order, any case), comma, semicolon or tab separated,
 * fields quoted where they hold one. Each row names a customer by e-mail or Shopify customer id and
 * the points to bring; a note, the customer's VIP tier (by the name of one of the shop's tiers) and
 * their birthday are optional.
 */

export const MAX_ROWS = 10_000;
export const MAX_POINTS = 1_000_000;
export const MAX_NOTE = 256;
/** The core's bound on a tier's name: a longer one names no tier. */
const MAX_TIER = 256;

export interface ImportRow {
  /** The row's line in the merchant's file, the header being line 1. */
  line: number;
  email: string | null;
  customerId: string | null;
  points: number;
  note: string | null;
  /** The VIP tier the customer had, as the file names it (the shop's tier of that name places them: imports.server.ts). */
  tier: string | null;
  /** The customer's birthday as the core keeps it, MM-DD (a year the file gives is left out). */
  birthday: string | null;
}

export type RowProblem =
  | 'no_customer'
  | 'bad_email'
  | 'bad_customer_id'
  | 'bad_points'
  | 'note_too_long'
  | 'tier_too_long'
  | 'unknown_tier'
  | 'ambiguous_tier'
  | 'bad_birthday'
  | 'twice';
export type FileProblem = 'empty' | 'no_points_column' | 'no_customer_column' | 'too_many';

export type Parsed =
  | { ok: true; rows: ImportRow[]; zero: number }
  | { ok: false; file: FileProblem }
  | { ok: false; rows: { line: number; problem: RowProblem; value: string }[] };

/** Header names as exports write them (Smile.io, LoyaltyLion, a merchant's own sheet). */
const COLUMNS: Record<'email' | 'customerId' | 'points' | 'note' | 'tier' | 'birthday', RegExp> = {
  email: /^(customer[ _-]?)?e-?mail( address)?$/,
  customerId: /^(shopify[ _-]?)?customer[ _-]?id$|^id$/,
  // The points a customer can spend now: LoyaltyLion's "points approved" (not "pending" or "spent").
  points: /^(points?|balance|points?[ _-]?(balance|approved|available)|(approved|available|current)[ _-]?(points?|balance))$/,
  note: /^(note|notes|comment|reason)$/,
  // Smile.io's "VIP tier", LoyaltyLion's "tier".
  tier: /^(vip|(vip[ _-]?)?(tier|level)([ _-]?name)?)$/,
  birthday: /^(birthday|birth[ _-]?(date|day)|date[ _-]?of[ _-]?birth|dob)$/,
};

const EMAIL = /^[^\s@",;]+@[^\s@",;]+\.[^\s@",;]+$/;
const CUSTOMER_ID = /^(?:gid:\/\/shopify\/Customer\/)?([1-9]\d{0,19})$/;

/** The file's records, each a list of fields: RFC 4180 quoting, with the separator the header uses. */
function records(text: string): { line: number; fields: string[] }[] {
  const firstLine = text.slice(0, text.search(/\r?\n|$/));
  const separator = [',', ';', '\t'].reduce((best, s) => (firstLine.split(s).length > firstLine.split(best).length ? s : best), ',');
  const out: { line: number; fields: string[] }[] = [];
  let fields: string[] = [];
  let field = '';
  let quoted = false;
  let line = 1;
  let startLine = 1;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (ch === '"') quoted = false;
      else {
        if (ch === '\n') line++;
        field += ch;
      }
    } else if (ch === '"' && field.trim() === '') {
      field = '';
      quoted = true;
    } else if (ch === separator) {
      fields.push(field);
      field = '';
    } else if (ch === '\n' || ch === '\r') {
      if (ch === '\r' && text[i + 1] === '\n') i++;
      out.push({ line: startLine, fields: [...fields, field] });
      fields = [];
      field = '';
      line++;
      startLine = line;
    } else field += ch;
  }
  if (field !== '' || fields.length) out.push({ line: startLine, fields: [...fields, field] });
  return out.filter((r) => r.fields.some((f) => f.trim() !== ''));
}

/** Days in each month, February's 29th included (a birthday on it is kept on the 28th in other years). */
const MONTH_DAYS = [31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/**
 * A birthday as MM-DD from a date (1990-03-14, a time after it left out), a month and day (03-14,
 * --03-14) or a year-first date with slashes (1990/03/14); null for anything else, a day-first or
 * month-first date with slashes included, whose order no file says.
 */
function birthdayOf(text: string): string | null {
  const parts = /^(?:-?-|\d{4}[-/])?(\d{1,2})[-/](\d{1,2})(?:[T ].*)?$/.exec(text);
  if (!parts || (!/^(?:-?-|\d{4}[-/])/.test(text) && text.includes('/'))) return null;
  const [month, day] = [Number(parts[1]), Number(parts[2])];
  if (month < 1 || month > 12 || day < 1 || day > MONTH_DAYS[month - 1]!) return null;
  return `${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
}

/** "1200", "1 200", "1,200" and "1.200" with three digits after the mark: whole points, as exports write them. */
function pointsOf(text: string): number | null {
  const plain = text.replace(/[\s\u00a0\u202f]/g, '');
  const whole = /^\d{1,3}([,.'])\d{3}(\1\d{3})*$/.test(plain) ? plain.replace(/[,.']/g, '') : plain;
  return /^\d{1,7}$/.test(whole) ? Number(whole) : null;
}

export function parseImport(text: string): Parsed {
  // PostgreSQL keeps no NUL in text; a spreadsheet's file has none that mean anything.
  const all = records(text.replace(/^\uFEFF/, '').replace(/\u0000/g, ''));
  const [header, ...body] = all;
  if (!header) return { ok: false, file: 'empty' };
  const names = header.fields.map((f) => f.trim().toLowerCase());
  const column = (key: keyof typeof COLUMNS) => names.findIndex((n) => COLUMNS[key].test(n));
  const at = {
    email: column('email'),
    customerId: column('customerId'),
    points: column('points'),
    note: column('note'),
    tier: column('tier'),
    birthday: column('birthday'),
  };
  if (at.points < 0) return { ok: false, file: 'no_points_column' };
  if (at.email < 0 && at.customerId < 0) return { ok: false, file: 'no_customer_column' };
  if (!body.length) return { ok: false, file: 'empty' };
  if (body.length > MAX_ROWS) return { ok: false, file: 'too_many' };
  const rows: ImportRow[] = [];
  const problems: { line: number; problem: RowProblem; value: string }[] = [];
  const seen = new Map<string, number>();
  let zero = 0;
  for (const { line, fields } of body) {
    const cell = (i: number) => (i < 0 ? '' : (fields[i] ?? '').trim());
    const email = cell(at.email).toLowerCase();
    const id = cell(at.customerId);
    const pointsText = cell(at.points);
    const note = cell(at.note);
    const tier = cell(at.tier);
    const birthdayText = cell(at.birthday);
    const birthday = birthdayText ? birthdayOf(birthdayText) : null;
    const problem = (p: RowProblem, value: string) => void problems.push({ line, problem: p, value: value.slice(0, 80) });
    const customerId = id ? (CUSTOMER_ID.exec(id)?.[1] ?? null) : null;
    if (!email && !id) problem('no_customer', '');
    else if (id && !customerId) problem('bad_customer_id', id);
    else if (!id && !EMAIL.test(email)) problem('bad_email', email);
    const points = pointsOf(pointsText);
    if (points === null || points > MAX_POINTS) problem('bad_points', pointsText);
    if (note.length > MAX_NOTE) problem('note_too_long', note);
    if (tier.length > MAX_TIER) problem('tier_too_long', tier);
    if (birthdayText && !birthday) problem('bad_birthday', birthdayText);
    // A customer named twice would be given both rows' points: which one the merchant meant is theirs to say.
    const key = customerId ? `id:${customerId}` : `email:${email}`;
    if ((customerId || email) && seen.has(key)) problem('twice', String(seen.get(key)));
    seen.set(key, line);
    if (problems.length || points === null) continue;
    // A row of 0 points still brings its customer's tier and birthday.
    if (points === 0 && !tier && !birthday) zero++;
    else rows.push({ line, email: customerId ? null : email, customerId, points, note: note || null, tier: tier || null, birthday });
  }
  if (problems.length) return { ok: false, rows: problems };
  if (!rows.length) return { ok: false, file: 'empty' };
  return { ok: true, rows, zero };
}

/** A tier's name as a file and the shop may each write it: any case, spaces collapsed. */
export const tierKey = (name: string) => name.trim().replace(/\s+/g, ' ').toLowerCase();

/**
 * The shop's tier of each row's tier name, by tierKey: a live one before a draft (whose points count
 * once it is live); a name no tier has, or two live tiers have, is its row's problem.
 */
export function matchTiers(
  rows: ImportRow[],
  tiers: { id: string; name: string; live: boolean }[],
): { ok: true; tierIds: Map<string, string> } | { ok: false; rows: { line: number; problem: RowProblem; value: string }[] } {
  const tierIds = new Map<string, string>();
  const live = new Set<string>();
  const twice = new Set<string>();
  // Drafts first, so a live tier of the same name takes the key after them.
  for (const tier of [...tiers].sort((a, b) => Number(a.live) - Number(b.live))) {
    const key = tierKey(tier.name);
    if (tier.live && live.has(key)) twice.add(key);
    if (tier.live) live.add(key);
    tierIds.set(key, tier.id);
  }
  const problems = rows.flatMap((r) => {
    const key = r.tier ? tierKey(r.tier) : null;
    if (key === null || (tierIds.has(key) && !twice.has(key))) return [];
    return [
      { line: r.line, problem: twice.has(key) ? ('ambiguous_tier' as const) : ('unknown_tier' as const), value: r.tier!.slice(0, 80) },
    ];
  });
  return problems.length ? { ok: false, rows: problems } : { ok: true, tierIds };
}
