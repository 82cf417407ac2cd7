// A static walk of the modules a process loads, from its entry file: relative imports and the
// workspace's own packages (@catalog/*, through their package.json "exports", source condition)
// are followed; other packages are only recorded by name. Type-only imports (`import type`,
// `export type … from`) load nothing and are not followed; an import whose named bindings are all
// `type` is, as it may still be kept as `import {} from`. Dynamic `import("…")` with a literal and
// `new URL("…", import.meta.url)` (worker threads' entry files) count as loads.
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { builtinModules } from "node:module";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";

export const repoRoot = fileURLToPath(new URL("../../..", import.meta.url));

export interface ImportGraph {
  /** Every file reached, relative to the repository root ("packages/channels/src/index.ts"). */
  files: Set<string>;
  /**
   * Every package outside the workspace imported by a reached file ("pino", "@prisma/client"), with
   * the files importing it.
   */
  packages: Map<string, Set<string>>;
}

type Exports = string | { [condition: string]: Exports };

/** Workspace package name → its folder and its "exports". */
function workspacePackages(): Map<string, { dir: string; exports: Record<string, Exports> }> {
  const found = new Map<string, { dir: string; exports: Record<string, Exports> }>();
  for (const group of ["apps", "packages"]) {
    for (const name of readdirSync(join(repoRoot, group))) {
      const manifest = join(repoRoot, group, name, "package.json");
      if (!existsSync(manifest)) continue;
      const pkg = JSON.parse(readFileSync(manifest, "utf8")) as {
        name: string;
        exports?: Record<string, Exports>;
      };
      found.set(pkg.name, { dir: join(repoRoot, group, name), exports: pkg.exports ?? {} });
    }
  }
  return found;
}

/**
 * The source file an export entry names: a plain path, else its "default" condition (the sources;
 * "built" mirrors them).
 */
function exportTarget(entry: Exports | undefined): string | null {
  if (entry === undefined) return null;
  if (typeof entry === "string") return entry;
  return exportTarget(entry.default);
}

const isFile = (path: string) => existsSync(path) && statSync(path).isFile();

/** A relative specifier as Node under tsx resolves it: `./x.js` is `./x.ts` in the sources. */
function resolveRelative(fromFile: string, specifier: string): string | null {
  const base = resolve(dirname(fromFile), specifier);
  const candidates = [base.replace(/\.js$/, ".ts"), base, `${base}.ts`, join(base, "index.ts")];
  return candidates.find(isFile) ?? null;
}

/** "@scope/name/sub/path" → "@scope/name"; "name/sub" → "name". */
const packageName = (specifier: string) =>
  specifier
    .split("/")
    .slice(0, specifier.startsWith("@") ? 2 : 1)
    .join("/");

/** The module specifiers a file loads when it runs. */
function loadedSpecifiers(file: string): string[] {
  const source = ts.createSourceFile(
    file,
    readFileSync(file, "utf8"),
    ts.ScriptTarget.Latest,
    true,
  );
  const found: string[] = [];
  const visit = (node: ts.Node): void => {
    if (
      ts.isImportDeclaration(node) &&
      !node.importClause?.isTypeOnly &&
      ts.isStringLiteral(node.moduleSpecifier)
    ) {
      found.push(node.moduleSpecifier.text);
    } else if (
      ts.isExportDeclaration(node) &&
      !node.isTypeOnly &&
      node.moduleSpecifier &&
      ts.isStringLiteral(node.moduleSpecifier)
    ) {
      found.push(node.moduleSpecifier.text);
    } else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) {
      const [argument] = node.arguments;
      if (argument && ts.isStringLiteralLike(argument)) found.push(argument.text);
    } else if (
      ts.isNewExpression(node) &&
      node.expression.getText(source) === "URL" &&
      node.arguments?.length === 2 &&
      node.arguments[1]!.getText(source) === "import.meta.url"
    ) {
      const [target] = node.arguments;
      if (ts.isStringLiteralLike(target!) && /\.(m?js|ts)$/.test(target.text))
        found.push(target.text);
      // `./module${extension}`: the importer's own extension, ".ts" in the sources.
      if (
        ts.isTemplateExpression(target!) &&
        target.templateSpans.length === 1 &&
        target.templateSpans[0]!.literal.text === ""
      ) {
        found.push(`${target.head.text}.ts`);
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/**
 * Walks from `entries` (paths relative to the repository root). Throws on an import it cannot
 * resolve.
 */
export function importGraph(...entries: string[]): ImportGraph {
  const packages = workspacePackages();
  const graph: ImportGraph = { files: new Set(), packages: new Map() };
  const queue = entries.map((entry) => join(repoRoot, entry));
  for (let file = queue.pop(); file !== undefined; file = queue.pop()) {
    const key = relative(repoRoot, file);
    if (graph.files.has(key)) continue;
    graph.files.add(key);
    for (const specifier of loadedSpecifiers(file)) {
      if (specifier.startsWith(".")) {
        const target = resolveRelative(file, specifier);
        if (!target) throw new Error(`${key}: cannot resolve ${specifier}`);
        queue.push(target);
        continue;
      }
      if (specifier.startsWith("node:") || builtinModules.includes(specifier)) continue;
      const name = packageName(specifier);
      const workspace = packages.get(name);
      if (!workspace) {
        graph.packages.set(name, (graph.packages.get(name) ?? new Set()).add(key));
        continue;
      }
      const target = exportTarget(workspace.exports[`.${specifier.slice(name.length)}`]);
      if (!target) throw new Error(`${key}: ${specifier} is not exported by ${name}`);
      queue.push(join(workspace.dir, target));
    }
  }
  return graph;
}

/**
 * The packages outside the workspace that files under `dir` (relative to the repository root)
 * import.
 */
export function packagesImportedUnder(graph: ImportGraph, dir: string): string[] {
  return [...graph.packages]
    .filter(([, importers]) => [...importers].some((file) => file.startsWith(dir)))
    .map(([name]) => name)
    .sort();
}
