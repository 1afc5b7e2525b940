/**
 * A cursor over the words of an access-control statement (the engine's parser hands them over
 * as tokens: bare words, quoted identifiers and string literals, punctuation). Names are read
 * as whole tokens, never pieced together from text, so a quote or semicolon inside a name is
 * just a character of the name (security.md T17).
 */
import { SqlError } from "../../engine/mod.ts";

export interface Word {
  text: string;
  pos: number;
  quoted: boolean;
}

/** `acl.entity.name.max.length` default. */
export const NAME_LENGTH_MAX = 255;

export class Words {
  #index = 0;

  constructor(readonly words: Word[], readonly endPos: number) {}

  get index(): number {
    return this.#index;
  }

  atEnd(): boolean {
    return this.#index >= this.words.length;
  }

  /** Position of the current word (or the end) for error messages. */
  pos(): number {
    return this.words[this.#index]?.pos ?? this.endPos;
  }

  /** The upper-cased bare word `ahead` words on, or undefined (quoted words are never keywords). */
  keyword(ahead = 0): string | undefined {
    const w = this.words[this.#index + ahead];
    return w && !w.quoted ? w.text.toUpperCase() : undefined;
  }

  /** Bare words from here on, upper-cased (undefined for quoted ones): input to readPermission. */
  keywords(): (string | undefined)[] {
    return this.words.slice(this.#index).map((w) => (w.quoted ? undefined : w.text.toUpperCase()));
  }

  skip(count: number): void {
    this.#index += count;
  }

  /** Consumes the keywords when they all come next. */
  accept(...keywords: string[]): boolean {
    if (!keywords.every((k, i) => this.keyword(i) === k)) return false;
    this.#index += keywords.length;
    return true;
  }

  expect(...keywords: string[]): void {
    if (!this.accept(...keywords)) throw this.error(`'${keywords.join(" ")}' expected`);
  }

  /** An entity, table or column name: one bare or quoted token, checked for sanity. */
  name(what: string): { name: string; pos: number } {
    const w = this.words[this.#index];
    if (!w || (!w.quoted && !/^[\p{L}\p{N}_$.@-]+$/u.test(w.text))) throw this.error(`${what} expected`);
    this.#index++;
    checkName(w.text, w.pos, what);
    return { name: w.text, pos: w.pos };
  }

  /** A string literal (or, as the docs also show, a bare word) such as a password or alias. */
  literal(what: string): string {
    const w = this.words[this.#index];
    if (!w || (!w.quoted && /^[(),;]$/.test(w.text))) throw this.error(`${what} expected`);
    this.#index++;
    return w.text;
  }

  /** Consumes `op` (punctuation) when it comes next. */
  acceptOp(op: string): boolean {
    const w = this.words[this.#index];
    if (!w || w.quoted || w.text !== op) return false;
    this.#index++;
    return true;
  }

  expectEnd(): void {
    if (this.atEnd()) return;
    // A quoted word may be a password or token: never echo it (security.md T18).
    const w = this.words[this.#index];
    throw this.error(`unexpected token [${w.quoted ? "<literal>" : w.text}]`);
  }

  error(message: string): SqlError {
    return new SqlError(message, this.pos(), "syntax");
  }
}

/** Rejects empty, over-long and control-character names (security.md §1, T17). */
export function checkName(name: string, pos: number, what: string): void {
  // deno-lint-ignore no-control-regex
  if (name.length === 0 || /[\u0000-\u001f\u007f]/.test(name)) {
    throw new SqlError(`invalid ${what} [name=${JSON.stringify(name)}]`, pos);
  }
  if (name.length > NAME_LENGTH_MAX) {
    throw new SqlError(`${what} is too long [max=${NAME_LENGTH_MAX}]`, pos, "limit");
  }
}
