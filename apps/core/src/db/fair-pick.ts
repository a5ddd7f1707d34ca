/**
 * The first CTEs of a claim that is fair between accounts, `accounts` and `picked`: a loose index
 * scan over the accounts with `waiting` rows (one probe each of an index led by `account_id`), then
 * each account's oldest `due` rows by `dueColumn`, as many as its room allows, oldest first across
 * accounts. Rows another claim holds are skipped, so racing claims take the next ones (each locks
 * no more of an account than it may take). The conditions name the table's columns unqualified.
 * Placeholders after those of `due`: how many in all, each account's cap, what each already holds
 * (JSON by account id), and how many in all again.
 */
export function fairPick(table: string, { waiting, due, dueColumn }: { waiting: string; due: string; dueColumn: string }): string {
  return `with recursive accounts(account_id) as (
    (select account_id from ${table} where ${waiting} order by account_id limit 1)
    union all
    select (select w.account_id from ${table} w where ${waiting} and w.account_id > a.account_id order by w.account_id limit 1)
      from accounts a where a.account_id is not null
  ), picked as (
    select l.account_id, l.id from accounts a
     cross join lateral (
       select w.account_id, w.id, w.${dueColumn} from ${table} w
        where w.account_id = a.account_id and ${waiting} and ${due}
        order by w.${dueColumn}
        limit least(?::int, greatest(0, ?::int - coalesce((?::jsonb ->> a.account_id::text)::int, 0)))
        for update of w skip locked
     ) l
     order by l.${dueColumn}
     limit ?
  )`;
}
