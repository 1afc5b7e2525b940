/**
 * The columns of the access-control SHOWs (SHOW USERS / GROUPS / USER / PERMISSIONS /
 * SERVICE ACCOUNTS), known without asking access control, so a prepared SHOW is described
 * without running it (issue #18). server/auth answers with these same columns.
 */
import { type ColumnType, T } from "../base/types.ts";
import type * as A from "../sql/ast.ts";

const NAME = [{ name: "name", type: T.STRING }];

export function aclShowColumns(s: A.ShowStmt): { name: string; type: ColumnType }[] {
  switch (s.what) {
    case "user":
    case "serviceAccount":
      return [{ name: "auth_type", type: T.STRING }, { name: "enabled", type: T.BOOLEAN }];
    case "serviceAccounts":
      return s.target === undefined ? NAME : [...NAME, { name: "grant_option", type: T.BOOLEAN }];
    case "permissions":
      return [
        { name: "permission", type: T.STRING },
        { name: "table_name", type: T.STRING },
        { name: "column_name", type: T.STRING },
        { name: "grant_option", type: T.BOOLEAN },
        { name: "origin", type: T.STRING },
      ];
    default:
      return NAME;
  }
}
