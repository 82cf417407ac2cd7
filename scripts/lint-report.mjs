// Runs ESLint over the workspace (or the paths given) and prints its findings grouped by rule:
// each rule with its count, then file:line and the message. Ends with the total; exits 1 on any
// finding. `--counts` prints only the counts; `--from <file.json>` reads a saved `eslint -f json`
// report instead of running ESLint.
//
//   node scripts/lint-report.mjs [--counts] [--from report.json] [paths...]
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { relative } from "node:path";

const args = process.argv.slice(2);
const countsOnly = args.includes("--counts");
const fromIndex = args.indexOf("--from");
const from = fromIndex >= 0 ? args[fromIndex + 1] : undefined;
const paths = args.filter((a, i) => a !== "--counts" && i !== fromIndex && i !== fromIndex + 1);

function readReport() {
  if (from) return readFileSync(from, "utf8");
  const run = spawnSync(
    "node_modules/.bin/eslint",
    ["-f", "json", ...(paths.length ? paths : ["."])],
    {
      encoding: "utf8",
      maxBuffer: 256 * 1024 * 1024,
      stdio: ["ignore", "pipe", "inherit"],
    },
  );
  if (run.status !== 0 && run.status !== 1) process.exit(run.status ?? 2);
  return run.stdout;
}

const byRule = new Map();
for (const file of JSON.parse(readReport())) {
  for (const m of file.messages) {
    const rule = m.ruleId ?? (m.fatal ? "(parse error)" : "(no rule)");
    const list = byRule.get(rule) ?? [];
    list.push(`${relative(process.cwd(), file.filePath)}:${m.line ?? 0}  ${m.message}`);
    byRule.set(rule, list);
  }
}

const rules = [...byRule].sort((a, b) => b[1].length - a[1].length || a[0].localeCompare(b[0]));
let total = 0;
for (const [rule, list] of rules) {
  total += list.length;
  console.log(`${String(list.length).padStart(5)}  ${rule}`);
  if (!countsOnly) for (const line of list) console.log(`         ${line}`);
}
console.log(`${total} finding${total === 1 ? "" : "s"}`);
process.exitCode = total > 0 ? 1 : 0;
