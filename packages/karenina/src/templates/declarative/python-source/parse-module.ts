/**
 * A parser for declarative template modules (spec 02 §10.2 tier A): import lines that both runtimes resolve
 * (see `module-tree.ts`), docstrings and comments,
 * one `class X(BaseAnswer):` whose body holds only annotated assignments (`name: T = <expression>`), `pass`,
 * docstrings and an optional inner `class VerificationStrategy:` with `verify_strategy = <expression>`.
 * Expressions are Python literals, calls with keyword arguments, subscripts, attribute access and `|`.
 * Anything else is refused with a {@link NotDeclarativeError}.
 */

import type { PyFloat } from "../../../python-repr/index.js";
import { NotDeclarativeError } from "../errors.js";
import { importResolves, moduleExists } from "./module-tree.js";
import { type Token, type TokenKind, tokenize } from "./tokenize.js";

/** A parsed expression. Tuples are lists with `tuple: true`. */
export type Expr =
  | { kind: "constant"; value: string | number | PyFloat | boolean | null; line: number }
  | { kind: "name"; name: string; line: number }
  | { kind: "list"; items: Expr[]; tuple: boolean; line: number }
  | { kind: "dict"; entries: [Expr, Expr][]; line: number }
  | { kind: "call"; callee: Expr; args: Expr[]; kwargs: [string, Expr][]; line: number }
  | { kind: "subscript"; base: Expr; index: Expr; line: number }
  | { kind: "attribute"; base: Expr; name: string; line: number }
  | { kind: "union"; left: Expr; right: Expr; line: number }
  | { kind: "negate"; operand: Expr; line: number };

/** `name: annotation = value` in the class body. */
export interface FieldDeclaration {
  name: string;
  annotation: Expr;
  value: Expr;
  line: number;
}

export interface TemplateModule {
  className: string;
  fields: FieldDeclaration[];
  /** The `verify_strategy` expression of an inner `VerificationStrategy` class, or null. */
  strategy: Expr | null;
}

/**
 * How deeply expressions may nest (brackets, unary signs): CPython's tokenizer refuses more than 200 nested
 * brackets, and a hostile template nesting 100 000 would otherwise overflow this recursive parser's stack.
 */
const MAX_NESTING = 200;

class Parser {
  private position = 0;
  private depth = 0;

  constructor(private readonly tokens: Token[]) {}

  get current(): Token {
    return this.tokens[this.position] as Token;
  }

  private refuse(reason: string, token: Token = this.current): never {
    throw new NotDeclarativeError(reason, token.line);
  }

  private at(kind: TokenKind, text?: string): boolean {
    return this.current.kind === kind && (text === undefined || this.current.text === text);
  }

  private accept(kind: TokenKind, text?: string): Token | null {
    if (!this.at(kind, text)) return null;
    return this.tokens[this.position++] as Token;
  }

  private expect(kind: TokenKind, text?: string): Token {
    return (
      this.accept(kind, text) ?? this.refuse(`expected ${text ?? kind}, found ${describe(this.current)}`)
    );
  }

  module(): TemplateModule {
    let template: TemplateModule | null = null;
    // Python accepts `from __future__ import …` only after the docstring and other such lines.
    let futureAllowed = true;
    let statements = 0;
    while (!this.at("end")) {
      if (this.accept("newline")) continue;
      const future = this.at("name", "from") && this.tokens[this.position + 1]?.text === "__future__";
      if (future && !futureAllowed) this.refuse("a __future__ import after other statements");
      const docstring = statements === 0 && this.at("string");
      if (!future && !docstring) futureAllowed = false;
      statements++;
      if (this.at("name", "import") || this.at("name", "from")) this.importStatement();
      else if (this.at("string")) this.docstring();
      else if (this.at("name", "class")) {
        if (template) this.refuse("more than one class (only one BaseAnswer class, nothing else)");
        template = this.answerClass();
      } else this.refuse(`unexpected statement at module level: ${describe(this.current)}`);
    }
    return template ?? this.refuse("no BaseAnswer class found");
  }

  private dottedName(): string {
    let name = this.expect("name").text;
    while (this.accept("op", ".")) name += `.${this.expect("name").text}`;
    return name;
  }

  /** A module both runtimes can import (karenina's public tree, typing, pydantic, __future__). */
  private checkModule(name: string, token: Token): void {
    if (!moduleExists(name) || name === "__future__") {
      this.refuse(
        `import of '${name}' (only karenina's public modules, typing, pydantic and __future__)`,
        token,
      );
    }
  }

  /** Each imported name must exist, or Python's import fails and the template is invalid. */
  private checkName(module: string, name: Token): void {
    if (!importResolves(module, name.text))
      this.refuse(`'${name.text}' cannot be imported from '${module}'`, name);
  }

  private importStatement(): void {
    const start = this.current;
    if (this.accept("name", "import")) {
      do {
        this.checkModule(this.dottedName(), start);
        if (this.accept("name", "as")) this.expect("name");
      } while (this.accept("op", ","));
    } else {
      this.expect("name", "from");
      if (this.at("op", ".")) this.refuse("relative imports are not supported");
      const module = this.dottedName();
      if (!moduleExists(module)) this.checkModule(module, start);
      this.expect("name", "import");
      if (this.accept("op", "*")) {
        if (module === "__future__") this.refuse("future feature * is not defined", start);
      } else {
        const parenthesized = this.accept("op", "(") !== null;
        do {
          if (parenthesized && this.at("op", ")")) break;
          this.checkName(module, this.expect("name"));
          if (this.accept("name", "as")) this.expect("name");
        } while (this.accept("op", ","));
        if (parenthesized) this.expect("op", ")");
      }
    }
    this.expect("newline");
  }

  private docstring(): void {
    while (this.accept("string"));
    this.expect("newline");
  }

  private answerClass(): TemplateModule {
    this.expect("name", "class");
    const className = this.expect("name").text;
    this.expect("op", "(");
    const base = this.dottedName();
    if (base !== "BaseAnswer") this.refuse(`class ${className} derives from '${base}', not BaseAnswer`);
    this.expect("op", ")");
    this.expect("op", ":");
    this.expect("newline");
    this.expect("indent");
    const fields: FieldDeclaration[] = [];
    let strategy: Expr | null = null;
    let sawStrategy = false;
    while (!this.accept("dedent")) {
      if (this.at("string")) this.docstring();
      else if (this.accept("name", "pass")) this.expect("newline");
      else if (this.at("name", "class")) {
        if (sawStrategy) this.refuse("a second inner class");
        sawStrategy = true;
        strategy = this.strategyClass();
      } else if (this.at("name", "def") || this.at("op", "@") || this.at("name", "async")) {
        this.refuse("methods are not declarative");
      } else {
        fields.push(this.fieldDeclaration());
      }
    }
    return { className, fields, strategy };
  }

  private strategyClass(): Expr | null {
    this.expect("name", "class");
    const name = this.expect("name");
    if (name.text !== "VerificationStrategy") this.refuse(`inner class '${name.text}'`, name);
    if (this.accept("op", "(")) {
      if (!this.accept("op", ")")) {
        const base = this.expect("name");
        if (base.text !== "object") this.refuse(`VerificationStrategy derives from '${base.text}'`, base);
        this.expect("op", ")");
      }
    }
    this.expect("op", ":");
    this.expect("newline");
    this.expect("indent");
    let strategy: Expr | null = null;
    while (!this.accept("dedent")) {
      if (this.at("string")) this.docstring();
      else if (this.accept("name", "pass")) this.expect("newline");
      else {
        const target = this.expect("name");
        if (target.text !== "verify_strategy" || strategy !== null) {
          this.refuse(`unexpected statement in VerificationStrategy: '${target.text}'`, target);
        }
        this.expect("op", "=");
        strategy = this.expression();
        this.expect("newline");
      }
    }
    return strategy;
  }

  private fieldDeclaration(): FieldDeclaration {
    const name = this.current;
    if (name.kind !== "name") this.refuse(`unexpected ${describe(name)} in the class body`);
    this.position++;
    if (!this.accept("op", ":")) this.refuse(`'${name.text}' is not an annotated field declaration`, name);
    const annotation = this.expression();
    if (!this.accept("op", "=")) this.refuse(`field '${name.text}' has no VerifiedField`, name);
    const value = this.expression();
    this.expect("newline");
    return { name: name.text, annotation, value, line: name.line };
  }

  expression(): Expr {
    return this.nested(() => {
      let left = this.unary();
      while (this.at("op", "|")) {
        const line = this.current.line;
        this.position++;
        left = { kind: "union", left, right: this.unary(), line };
      }
      return left;
    });
  }

  private unary(): Expr {
    const sign = this.accept("op", "-") ?? this.accept("op", "+");
    if (!sign) return this.postfix();
    const operand = this.nested(() => this.unary());
    return sign.text === "-" ? { kind: "negate", operand, line: sign.line } : operand;
  }

  private nested(parse: () => Expr): Expr {
    if (this.depth >= MAX_NESTING) this.refuse(`expressions nested more than ${MAX_NESTING} deep`);
    this.depth++;
    try {
      return parse();
    } finally {
      this.depth--;
    }
  }

  private postfix(): Expr {
    let expr = this.atom();
    for (;;) {
      const line = this.current.line;
      if (this.accept("op", "(")) expr = this.callArguments(expr, line);
      else if (this.accept("op", "[")) {
        const index = this.sequence("]", "subscript");
        expr = { kind: "subscript", base: expr, index, line };
      } else if (this.accept("op", "."))
        expr = { kind: "attribute", base: expr, name: this.expect("name").text, line };
      else return expr;
    }
  }

  private callArguments(callee: Expr, line: number): Expr {
    const args: Expr[] = [];
    const kwargs: [string, Expr][] = [];
    while (!this.accept("op", ")")) {
      if (this.at("name") && this.tokens[this.position + 1]?.text === "=") {
        const name = this.expect("name").text;
        this.expect("op", "=");
        if (kwargs.some(([key]) => key === name)) this.refuse(`keyword argument repeated: ${name}`);
        kwargs.push([name, this.expression()]);
      } else {
        if (this.at("op", "*") || this.at("op", "**")) this.refuse("argument unpacking is not supported");
        if (kwargs.length > 0) this.refuse("positional argument follows keyword argument");
        args.push(this.expression());
      }
      if (!this.accept("op", ",")) {
        this.expect("op", ")");
        break;
      }
    }
    return { kind: "call", callee, args, kwargs, line };
  }

  /** Comma-separated expressions up to `close`; a single item without comma is returned as itself. */
  private sequence(close: string, kind: "subscript" | "paren"): Expr {
    const line = this.current.line;
    const items: Expr[] = [];
    let trailingComma = false;
    while (!this.accept("op", close)) {
      items.push(this.expression());
      trailingComma = this.accept("op", ",") !== null;
      if (!trailingComma) {
        this.expect("op", close);
        break;
      }
    }
    if (items.length === 1 && !trailingComma) return items[0] as Expr;
    if (items.length === 0 && kind === "subscript") this.refuse("empty subscript");
    return { kind: "list", items, tuple: true, line };
  }

  private atom(): Expr {
    const token = this.current;
    const line = token.line;
    if (this.accept("number")) return { kind: "constant", value: token.value as number | PyFloat, line };
    if (this.at("string")) {
      let value = "";
      while (this.at("string")) value += this.tokens[this.position++]?.value as string;
      return { kind: "constant", value, line };
    }
    if (this.accept("name")) {
      if (token.text === "True" || token.text === "False")
        return { kind: "constant", value: token.text === "True", line };
      if (token.text === "None") return { kind: "constant", value: null, line };
      return { kind: "name", name: token.text, line };
    }
    if (this.accept("op", "(")) return this.sequence(")", "paren");
    if (this.accept("op", "[")) {
      const items: Expr[] = [];
      while (!this.accept("op", "]")) {
        items.push(this.expression());
        if (!this.accept("op", ",")) {
          this.expect("op", "]");
          break;
        }
      }
      return { kind: "list", items, tuple: false, line };
    }
    if (this.accept("op", "{")) {
      const entries: [Expr, Expr][] = [];
      while (!this.accept("op", "}")) {
        const key = this.expression();
        if (!this.accept("op", ":")) this.refuse("set literals are not supported");
        entries.push([key, this.expression()]);
        if (!this.accept("op", ",")) {
          this.expect("op", "}");
          break;
        }
      }
      return { kind: "dict", entries, line };
    }
    return this.refuse(`unexpected ${describe(token)}`);
  }
}

function describe(token: Token): string {
  if (token.kind === "end") return "end of code";
  if (token.kind === "newline") return "end of line";
  if (token.kind === "indent" || token.kind === "dedent") return "a change of indentation";
  return `'${token.text}'`;
}

/**
 * Parses the source of a declarative template into its class name, field declarations and strategy.
 * @throws NotDeclarativeError for anything outside the declarative subset (or not valid Python).
 */
export function parseTemplateModule(source: string): TemplateModule {
  return new Parser(tokenize(source)).module();
}
