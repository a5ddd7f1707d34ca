// Counts the type assertions in a source folder on the syntax tree: `x as T` and `<T>x`, not `as const`
// (which narrows a literal instead of overriding the checker). Prints each file's count and the total,
// and apart from them the non-null assertions (`x!`). Usage, from a package: node ../../scripts/count-casts.mjs <folder>
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import ts from 'typescript';

const root = process.cwd();
const directory = resolve(root, process.argv[2] ?? 'src');

function* sources(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* sources(path);
    else if (/\.(ts|tsx|mts)$/.test(entry.name)) yield path;
  }
}

const isConst = (type) => ts.isTypeReferenceNode(type) && ts.isIdentifier(type.typeName) && type.typeName.text === 'const';

function count(path) {
  const kind = path.endsWith('x') ? ts.ScriptKind.TSX : ts.ScriptKind.TS;
  const file = ts.createSourceFile(path, readFileSync(path, 'utf8'), ts.ScriptTarget.Latest, false, kind);
  let casts = 0;
  let nonNull = 0;
  const visit = (node) => {
    if ((ts.isAsExpression(node) || ts.isTypeAssertionExpression(node)) && !isConst(node.type)) casts += 1;
    if (ts.isNonNullExpression(node)) nonNull += 1;
    ts.forEachChild(node, visit);
  };
  visit(file);
  return { casts, nonNull };
}

let total = 0;
let nonNullTotal = 0;
for (const path of [...sources(directory)].sort()) {
  const { casts, nonNull } = count(path);
  total += casts;
  nonNullTotal += nonNull;
  if (casts) console.log(`${String(casts).padStart(4)}  ${relative(root, path)}`);
}
console.log(`${String(total).padStart(4)}  total`);
console.log(`${String(nonNullTotal).padStart(4)}  non-null assertions, counted apart`);
