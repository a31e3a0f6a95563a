// Drizzle statements on the hot path of every request are built once per database and prepared by
// name: building a query's SQL through drizzle cost more of the server's thread than PostgreSQL
// took to run it (users/me spent an eighth of its time in drizzle's builder).
import type { Database } from './database';

/** `build(db)` once per database, then the same (prepared) statement on every call. */
export function preparedPerDatabase<Statement>(build: (db: Database) => Statement): (db: Database) => Statement {
  const statements = new WeakMap<Database, Statement>();
  return (db) => {
    let statement = statements.get(db);
    if (statement === undefined) {
      statement = build(db);
      statements.set(db, statement);
    }
    return statement;
  };
}
