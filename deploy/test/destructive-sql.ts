// What in a migration breaks the release before it, which still runs while the new one rolls out
// (expand, then contract: deploy/README.md). Comments and dollar-quoted bodies (functions) are
// left out, so prose and plpgsql never match.

const RULES: [RegExp, string][] = [
  [/\bDROP\s+TABLE\b/i, "drops a table"],
  [/\bDROP\s+(COLUMN\s+)?"[^"]+"\s*(,|;|CASCADE|RESTRICT)/i, "drops a column"],
  [/\bDROP\s+COLUMN\b/i, "drops a column"],
  [/\bRENAME\s+(COLUMN\s+)?"?\w+"?\s+TO\b/i, "renames a column"],
  [/\bALTER\s+TABLE\s+(IF\s+EXISTS\s+)?"?\w+"?\s+RENAME\s+TO\b/i, "renames a table"],
  [/\bALTER\s+COLUMN\s+"?\w+"?\s+(SET\s+DATA\s+)?TYPE\b/i, "changes a column's type"],
  [/\bDROP\s+TYPE\b/i, "drops a type"],
  [/\bALTER\s+TYPE\s+\S+\s+RENAME\b/i, "renames a type or an enum value"],
];

/** A migration's acknowledgement that it is the contract step of an earlier expand. */
export const CONTRACT_MARKER = /^--\s*contract:\s*\S/m;

const code = (sql: string) =>
  sql
    .replace(/\$(\w*)\$[\s\S]*?\$\1\$/g, "")
    .replace(/\/\*[\s\S]*?\*\//g, "")
    .replace(/--.*$/gm, "");

/** Each statement of `sql` that would break the previous release, with why. */
export function destructiveStatements(sql: string): string[] {
  return code(sql)
    .split(";")
    .map((statement) => statement.trim().replace(/\s+/g, " "))
    .flatMap((statement) => {
      const rule = RULES.find(([pattern]) => pattern.test(`${statement};`));
      return rule ? [`${rule[1]}: ${statement}`] : [];
    });
}
