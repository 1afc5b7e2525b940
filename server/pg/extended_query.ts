/**
 * The extended query protocol (spec/protocols.md §12.5): Parse, Bind, Describe, Execute and
 * Close over named and unnamed prepared statements and portals. After an error every message
 * up to the next Sync is skipped, and the error is reported once. Outside a transaction
 * block, Sync ends the implicit transaction and drops the portals.
 */
import type { Engine, PreparedStatement as EnginePrepared, Value } from "../../engine/mod.ts";
import { returnsRows, T } from "../../engine/mod.ts";
import * as M from "./backend_messages.ts";
import type { BufferWriter } from "./buffer_writer.ts";
import { decodeBinaryParam, decodeTextParam, typedParam } from "./decode_param.ts";
import type { FrontendMessage } from "./frontend_messages.ts";
import { Portal } from "./portal.ts";
import {
  enginePrepared,
  paramOidsOf,
  type PreparedStatement,
  prepareStatement,
} from "./prepared_statement.ts";
import { fieldsOf, resultFormats } from "./row_cursor.ts";
import { wireSetting } from "./run_statement.ts";
import { PgError, SQLSTATE } from "./sqlstate.ts";
import type { Connection } from "./connection.ts";
import { DEFAULT_TIME_ZONE, withSessionZone } from "./time_zone.ts";

type Msg<K extends FrontendMessage["kind"]> = Extract<FrontendMessage, { kind: K }>;

export class ExtendedQuery {
  readonly #conn: Connection;
  readonly #namedLimit: number;
  readonly #statements = new Map<string, PreparedStatement>();
  readonly #portals = new Map<string, Portal>();
  /** Set after an error: messages are ignored until Sync. */
  #skipping = false;

  constructor(conn: Connection, namedLimit: number) {
    this.#conn = conn;
    this.#namedLimit = namedLimit;
  }

  get #out(): BufferWriter {
    return this.#conn.out;
  }

  get #engine(): Engine {
    return this.#conn.engine;
  }

  async handle(msg: FrontendMessage): Promise<void> {
    if (this.#skipping) return;
    try {
      switch (msg.kind) {
        case "parse":
          return this.#parse(msg);
        case "bind":
          return await this.#bind(msg);
        case "describe":
          return await this.#describe(msg);
        case "execute":
          return await this.#execute(msg);
        case "close":
          return await this.#close(msg);
      }
    } catch (err) {
      this.#conn.reportError(err, this.#errorText(msg));
      this.#skipping = true;
    }
  }

  /** The text an error position refers to: the statement of the failing message. */
  #errorText(msg: FrontendMessage): string {
    if (msg.kind === "parse") return msg.sql;
    if (msg.kind === "bind") return this.#statements.get(msg.statement)?.text ?? "";
    if (msg.kind === "execute") return this.#portals.get(msg.portal)?.statement.text ?? "";
    if (msg.kind === "describe") {
      return (msg.target === "S"
        ? this.#statements.get(msg.name)?.text
        : this.#portals.get(msg.name)?.statement.text) ?? "";
    }
    return "";
  }

  async sync(): Promise<void> {
    this.#skipping = false;
    if (this.#conn.txStatus === "I") await this.#closePortals(() => true);
  }

  async closeUnnamed(): Promise<void> {
    await this.#closePortals((p) => p.name === "");
    this.#statements.delete("");
  }

  async closeAll(): Promise<void> {
    await this.#closePortals(() => true);
    this.#statements.clear();
  }

  deallocate(name: string | null): void {
    if (name === null) this.#statements.clear();
    else this.#statements.delete(name);
  }

  async #closePortals(which: (p: Portal) => boolean): Promise<void> {
    if (this.#portals.size === 0) return; // every Sync outside a block gets here
    for (const [name, portal] of [...this.#portals]) {
      if (!which(portal)) continue;
      this.#portals.delete(name);
      await portal.close();
    }
  }

  #parse(msg: Msg<"parse">): void {
    if (msg.name !== "") {
      if (this.#statements.has(msg.name)) {
        throw new PgError(SQLSTATE.DUPLICATE_PREPARED_STATEMENT, `duplicate statement [name=${msg.name}]`);
      }
      if (this.#statements.size >= this.#namedLimit) {
        throw new PgError(
          SQLSTATE.PROGRAM_LIMIT_EXCEEDED,
          `client created too many named statements without closing them. it looks like a buggy client. [limit=${this.#namedLimit}]`,
        );
      }
    }
    this.#statements.set(msg.name, prepareStatement(msg.name, msg.sql, msg.paramOids));
    M.parseComplete(this.#out);
  }

  #statement(name: string): PreparedStatement {
    const stmt = this.#statements.get(name);
    if (!stmt) {
      const message = name === ""
        ? "received a Bind message without a matching Parse"
        : `prepared statement "${name}" does not exist`;
      throw new PgError(SQLSTATE.UNDEFINED_PREPARED_STATEMENT, message);
    }
    return stmt;
  }

  #portal(name: string): Portal {
    const portal = this.#portals.get(name);
    if (!portal) throw new PgError(SQLSTATE.INVALID_CURSOR_NAME, `portal "${name}" does not exist`);
    return portal;
  }

  /**
   * The engine's prepared statement (parsed, parameters typed, columns known, plan kept), made
   * once and again only when table metadata changed. After leading statements (several in
   * one Parse) the last may read a table they create: prepared when it runs, after them.
   */
  #prepared(stmt: PreparedStatement): EnginePrepared | undefined {
    if (!stmt.before) return enginePrepared(stmt, this.#engine, this.#conn.session());
    try {
      return enginePrepared(stmt, this.#engine, this.#conn.session());
    } catch {
      return undefined;
    }
  }

  #paramOids(stmt: PreparedStatement): number[] {
    return paramOidsOf(stmt, () => this.#prepared(stmt));
  }

  async #bind(msg: Msg<"bind">): Promise<void> {
    const stmt = this.#statement(msg.statement);
    const oids = this.#paramOids(stmt);
    if (msg.values.length !== oids.length) {
      throw new PgError(
        SQLSTATE.PROTOCOL_VIOLATION,
        `bind message supplies ${msg.values.length} parameters, but prepared statement "${stmt.name}" requires ${oids.length}`,
      );
    }
    const decoded: Value[] = msg.values.map((bytes, i) => {
      if (bytes === null) return null;
      const f = msg.paramFormats.length === 0
        ? 0
        : msg.paramFormats.length === 1
        ? msg.paramFormats[0]
        : msg.paramFormats[i] ?? 0;
      if (f === 1) return decodeBinaryParam(bytes, oids[i], i);
      return decodeTextParam(new TextDecoder().decode(bytes), oids[i], i);
    });
    if (msg.portal !== "" && this.#portals.has(msg.portal)) {
      throw new PgError(SQLSTATE.PROTOCOL_VIOLATION, `portal already exists [namedPortal=${msg.portal}]`);
    }
    await this.#portals.get(msg.portal)?.close();
    const typed = decoded.map((v, i) => typedParam(oids[i], v));
    const params = typed.map((t) => t.value), types = typed.map((t) => t.type);
    this.#portals.set(msg.portal, new Portal(msg.portal, stmt, params, msg.resultFormats, types));
    M.bindComplete(this.#out);
  }

  async #start(portal: Portal): Promise<void> {
    if (portal.started) return;
    // Several statements in one Parse: the leading ones run first, their results dropped.
    for (const stmt of portal.statement.before ?? []) {
      const result = await this.#conn.run(stmt, portal.params, portal.paramTypes);
      if (result.kind === "rows") await result.batches[Symbol.asyncIterator]().return?.();
    }
    // Leading statements may have changed tables: the last is prepared (again) after them.
    this.#prepared(portal.statement);
    portal.accept(await this.#conn.run(portal.statement, portal.params, portal.paramTypes));
  }

  async #describe(msg: Msg<"describe">): Promise<void> {
    if (msg.target === "P") {
      const portal = this.#portal(msg.name);
      if (returnsRows(portal.statement.kind)) await this.#start(portal);
      if (portal.cursor) M.rowDescription(this.#out, fieldsOf(portal.cursor.columns, portal.cursor.formats));
      else M.noData(this.#out);
      return;
    }
    const stmt = this.#statement(msg.name);
    M.parameterDescription(this.#out, this.#paramOids(stmt));
    const columns = this.#columns(stmt);
    if (columns) M.rowDescription(this.#out, fieldsOf(columns, resultFormats(columns, [])));
    else M.noData(this.#out);
  }

  /**
   * Result columns of a prepared statement, known without running it: the engine's, or the
   * one column of a setting SHOW the wire answers; timestamptz casts as Execute sends them.
   */
  #columns(stmt: PreparedStatement) {
    const setting = wireSetting(stmt, this.#conn.settings);
    if (setting) return [{ name: setting[0], type: T.STRING }];
    const columns = this.#prepared(stmt)?.columns;
    if (!columns) return null;
    return withSessionZone(columns, this.#conn.settings.get("timezone") ?? DEFAULT_TIME_ZONE);
  }

  async #execute(msg: Msg<"execute">): Promise<void> {
    const portal = this.#portal(msg.portal);
    await this.#start(portal);
    if (portal.tag !== undefined) {
      M.commandComplete(this.#out, portal.tag);
      return;
    }
    const cursor = portal.cursor!;
    if (cursor.done) {
      M.commandComplete(this.#out, `${portal.rowsTag} 0`);
      return;
    }
    const rows = await cursor.write(this.#out, msg.maxRows, () => this.#conn.flush(), this.#conn.signal);
    if (cursor.done) M.commandComplete(this.#out, `${portal.rowsTag} ${rows}`);
    else M.portalSuspended(this.#out);
  }

  async #close(msg: Msg<"close">): Promise<void> {
    if (msg.target === "P") {
      await this.#portals.get(msg.name)?.close();
      this.#portals.delete(msg.name);
    } else {
      const stmt = this.#statements.get(msg.name);
      if (stmt) {
        this.#statements.delete(msg.name);
        await this.#closePortals((p) => p.statement === stmt);
      }
    }
    M.closeComplete(this.#out);
  }
}
