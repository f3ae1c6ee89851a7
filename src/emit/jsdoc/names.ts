/**
 * Names in the JSDoc target: which strings may stand bare as identifiers, how a tool name or
 * a `$ref` name becomes a type alias name, and the per-catalog table that keeps them unique.
 */
import { quoteJsonString } from '../../ir/json.js';

/** An IdentifierName as ECMAScript defines it (Unicode ID_Start / ID_Continue, `$`, `_`, ZWNJ, ZWJ). */
const IDENTIFIER = /^[\p{ID_Start}$_][\p{ID_Continue}$\u200c\u200d]*$/u;
/** The common case, tested first. */
const ASCII_IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/**
 * Words a type alias may not be called: ECMAScript reserved words (strict mode included, so
 * the catalog also checks inside a module), and the names TypeScript refuses for an alias
 * ("Type alias name cannot be 'string'").
 */
const RESERVED: ReadonlySet<string> = new Set([
  // ECMAScript reserved words
  'break', 'case', 'catch', 'class', 'const', 'continue', 'debugger', 'default', 'delete', 'do', 'else', 'enum', 'export',
  'extends', 'false', 'finally', 'for', 'function', 'if', 'import', 'in', 'instanceof', 'new', 'null', 'return', 'super',
  'switch', 'this', 'throw', 'true', 'try', 'typeof', 'var', 'void', 'while', 'with',
  // strict mode and module code
  'implements', 'interface', 'let', 'package', 'private', 'protected', 'public', 'static', 'yield', 'await', 'arguments', 'eval',
  // TypeScript's predefined type names
  'any', 'unknown', 'never', 'number', 'bigint', 'boolean', 'string', 'symbol', 'object', 'undefined',
]);

/** True when the text can be written bare as a property name (an IdentifierName; reserved words are fine there). */
export function isIdentifierName(text: string): boolean {
  return ASCII_IDENTIFIER.test(text) || (/[^\x00-\x7f]/.test(text) && IDENTIFIER.test(text) && [...text].every(oldEnough));
}

/**
 * Non-ASCII letters TypeScript's scanner surely knows: its tables are older than the runtime's
 * Unicode (Node 20.20 has Unicode 17), so only scripts of the first Unicode versions are used
 * bare (Latin, Greek, Cyrillic, kana, CJK, Hangul); any other character makes the name quoted
 * (a property) or sanitized (an alias).
 */
const OLD_SCRIPTS = /^[\x00-\x7f\u00c0-\u024f\u0370-\u03ff\u0400-\u04ff\u3040-\u30ff\u4e00-\u9fff\uac00-\ud7a3]$/u;
function oldEnough(ch: string): boolean {
  return OLD_SCRIPTS.test(ch);
}

/** A property name as written in a type literal: bare when it is an identifier, else a JSON string (`"x-y"`, `"1st"`). */
export function propertyKey(name: string): string {
  return isIdentifierName(name) ? name : quoteJsonString(name);
}

/**
 * A name that can follow `type`: every character that cannot continue an identifier becomes
 * `_`, a leading character that cannot start one gets a `_` before it, a reserved word gets
 * a `_` after it, and the empty string becomes `_`.
 */
export function sanitizeIdentifier(text: string): string {
  if (ASCII_IDENTIFIER.test(text)) return RESERVED.has(text) ? `${text}_` : text;
  let out = '';
  for (const ch of text) out += /[\p{ID_Continue}$]/u.test(ch) && oldEnough(ch) ? ch : '_';
  if (out === '') return '_';
  if (!/^[\p{ID_Start}$_]/u.test(out)) out = `_${out}`;
  return RESERVED.has(out) ? `${out}_` : out;
}

/** The name of a `$ref` target, as `IrRef.name` gives it: its last pointer token (`/$defs/Node` → `Node`), `Root` for the root. */
export function targetName(target: string): string {
  if (target === '') return 'Root';
  return target.slice(target.lastIndexOf('/') + 1).replace(/~1/g, '/').replace(/~0/g, '~');
}

/**
 * The type alias names of one catalog: each name is handed out once (`name`, then `name_2`,
 * `name_3`…). `Array` is taken from the start: the printer refers to the global `Array`.
 */
export class NameTable {
  private readonly taken = new Set<string>(['Array']);
  /** A unique alias name for the wanted text (sanitized first). */
  claim(wanted: string): string {
    const base = sanitizeIdentifier(wanted);
    let name = base;
    for (let k = 2; this.taken.has(name); k++) name = `${base}_${k}`;
    this.taken.add(name);
    return name;
  }
}
