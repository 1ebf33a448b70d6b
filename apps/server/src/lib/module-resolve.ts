/**
 * A faster resolution of the relative imports inside installed packages, for the server's memory and
 * start-up (docs/decisions/0007-server-bundle.md). Node's ESM loader finds the format of every module it
 * loads by reading the nearest package.json, and deserializes that file's whole `exports` map again for
 * each module: drizzle-orm's package.json is large and its ESM build about a thousand files, so importing
 * it allocated that map again for each of them, as garbage, and took most of a start. The heap the loader
 * grew never shrinks back, so it was most of the server's memory.
 *
 * The hook answers two cases itself:
 * - an `import` of a relative `.js` or `.mjs` path from a module inside `node_modules`, the way every
 *   package's own build imports its files. The URL is the specifier against the parent (then real-pathed,
 *   with one realpath(3) call, as Node does, and checked to exist), the format is `module` for `.mjs` and, for `.js`, the `type` of
 *   the nearest package.json, each read once per folder;
 * - a bare name (`drizzle-orm`, `@starlight/shared`) imported by our own code: Node's answer is kept per
 *   name, conditions and package root (when no `node_modules` lies between the importing folder and it),
 *   so the many imports of `@starlight/shared` and `drizzle-orm` resolve once each; Node read the
 *   package's exports map for every one.
 * Everything else (our own TypeScript, `require`, `node:` names, a missing file, a query or hash) goes to
 * Node's own resolution unchanged.
 */
import { existsSync, readFileSync, realpathSync } from 'node:fs';
import { type ResolveFnOutput, type ResolveHookContext, registerHooks } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

/** The `type` of the nearest package.json above a folder ('module' or 'commonjs'), per folder read. */
const scopeTypes = new Map<string, string>();

/** The module type of files in `dir`: the `type` of the nearest package.json, `commonjs` when none says. */
function scopeType(dir: string): string {
  const walked: string[] = [];
  let found: string | undefined;
  for (let d = dir; found === undefined; ) {
    found = scopeTypes.get(d);
    if (found !== undefined) break;
    walked.push(d);
    try {
      const pkg = JSON.parse(readFileSync(join(d, 'package.json'), 'utf8')) as { type?: unknown };
      found = pkg.type === 'module' ? 'module' : 'commonjs';
    } catch {
      const up = dirname(d);
      if (up === d) found = 'commonjs';
      d = up;
    }
  }
  for (const d of walked) scopeTypes.set(d, found);
  return found;
}

type NextResolve = (specifier: string, context?: Partial<ResolveHookContext>) => ResolveFnOutput;

/** Per folder of our own code: the folder of its nearest package.json, or null when a `node_modules` lies between. */
const packageRoots = new Map<string, string | null>();

/**
 * The package root `dir` resolves bare names from: the folder of the nearest package.json above it, when
 * no folder on the way holds a `node_modules` (then every folder of the package finds the same packages);
 * null otherwise.
 */
function packageRootOf(dir: string): string | null {
  const known = packageRoots.get(dir);
  if (known !== undefined) return known;
  let root: string | null;
  if (existsSync(join(dir, 'package.json'))) root = dir;
  else if (existsSync(join(dir, 'node_modules')) || dirname(dir) === dir) root = null;
  else root = packageRootOf(dirname(dir));
  packageRoots.set(dir, root);
  return root;
}

/** Node's answers for bare names imported by our own code, by (name, conditions, package root). */
const bareAnswers = new Map<string, ResolveFnOutput>();

/**
 * The resolve hook (module.registerHooks): `specifier` imported from `context.parentURL`. Returns the
 * module's URL and format, or what `nextResolve` (Node's resolution) returns for anything but a package's
 * relative `.js`/`.mjs` import.
 */
export function resolvePackageRelative(
  specifier: string,
  context: ResolveHookContext,
  nextResolve: NextResolve,
): ResolveFnOutput {
  const parent = context.parentURL;
  if (
    (specifier.startsWith('./') || specifier.startsWith('../')) &&
    parent?.startsWith('file:') &&
    parent.includes('/node_modules/') &&
    context.conditions.includes('import') &&
    /^[^?#]*\.m?js$/.test(specifier)
  ) {
    let file: string;
    try {
      file = realpathSync.native(fileURLToPath(new URL(specifier, parent)));
    } catch {
      // Missing: Node's resolution gives its own error.
      return nextResolve(specifier, context);
    }
    const format = file.endsWith('.mjs') || scopeType(dirname(file)) === 'module' ? 'module' : 'commonjs';
    return { url: pathToFileURL(file).href, format, shortCircuit: true };
  }
  const root =
    /^[@a-z]/i.test(specifier) &&
    !specifier.startsWith('node:') &&
    parent?.startsWith('file:') &&
    !parent.includes('/node_modules/')
      ? packageRootOf(dirname(fileURLToPath(parent)))
      : null;
  if (root === null) return nextResolve(specifier, context);
  const key = `${specifier}\0${context.conditions.join(',')}\0${root}`;
  const known = bareAnswers.get(key);
  if (known) return { ...known, shortCircuit: true };
  const answer = nextResolve(specifier, context);
  bareAnswers.set(key, answer);
  return answer;
}

/** Registers `resolvePackageRelative` for every module this process loads after the call. */
export function registerFastPackageResolve(): void {
  registerHooks({ resolve: resolvePackageRelative });
}
