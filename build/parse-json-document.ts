/**
 * A strict JSON parser for rule files that keeps what `JSON.parse` loses: the source order of object
 * keys (JS objects move integer-like keys such as "1" before "001"), duplicate keys, and the line and
 * column of a syntax error. Enum keys must stay in source order, so the build reads through this.
 */
export interface JsonDocument {
  value: unknown;
  /** Source-ordered entries of every object in `value`. */
  entriesOf(object: object): [string, unknown][];
  /** Keys that appeared twice in one object (the later one wins, as in `JSON.parse`). */
  duplicateKeys: { path: string; key: string }[];
}

export class JsonSyntaxError extends Error {
  constructor(
    message: string,
    readonly line: number,
    readonly column: number,
  ) {
    super(`${message} at line ${line}, column ${column}`);
  }
}

export function parseJsonDocument(text: string): JsonDocument {
  const entries = new WeakMap<object, [string, unknown][]>();
  const duplicateKeys: { path: string; key: string }[] = [];
  let pos = text.charCodeAt(0) === 0xfeff ? 1 : 0;

  const fail = (message: string, at = pos): never => {
    let line = 1;
    let lineStart = 0;
    for (let i = 0; i < at && i < text.length; i++) {
      if (text[i] === '\n') {
        line++;
        lineStart = i + 1;
      }
    }
    throw new JsonSyntaxError(message, line, at - lineStart + 1);
  };
  const skipWhitespace = () => {
    while (pos < text.length) {
      const c = text[pos];
      if (c === ' ' || c === '\t' || c === '\n' || c === '\r') pos++;
      else break;
    }
  };
  const describe = (at: number) => (at >= text.length ? 'end of file' : JSON.stringify(text[at]));

  const parseString = (): string => {
    const start = pos;
    pos++;
    while (pos < text.length) {
      const c = text.charCodeAt(pos);
      if (c === 0x22) {
        pos++;
        try {
          return JSON.parse(text.slice(start, pos)) as string;
        } catch {
          return fail('invalid escape in string', start);
        }
      }
      if (c === 0x5c) pos += 2;
      else if (c < 0x20) fail('unescaped control character in string');
      else pos++;
    }
    return fail('unterminated string', start);
  };

  const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;

  const parseValue = (path: string, depth: number): unknown => {
    if (depth > 200) fail('nesting deeper than 200 levels');
    skipWhitespace();
    const c = text[pos];
    if (c === '{') {
      pos++;
      const object: Record<string, unknown> = {};
      const list: [string, unknown][] = [];
      skipWhitespace();
      if (text[pos] === '}') {
        pos++;
        entries.set(object, list);
        return object;
      }
      for (;;) {
        skipWhitespace();
        if (text[pos] !== '"') fail(`expected a key string, found ${describe(pos)}`);
        const key = parseString();
        skipWhitespace();
        if (text[pos] !== ':') fail(`expected ':' after key, found ${describe(pos)}`);
        pos++;
        const member = parseValue(`${path}.${key}`, depth + 1);
        if (Object.prototype.hasOwnProperty.call(object, key)) {
          duplicateKeys.push({ path, key });
          const i = list.findIndex(([k]) => k === key);
          list.splice(i, 1);
        }
        Object.defineProperty(object, key, { value: member, enumerable: true, writable: true, configurable: true });
        list.push([key, member]);
        skipWhitespace();
        if (text[pos] === ',') {
          pos++;
          continue;
        }
        if (text[pos] === '}') {
          pos++;
          break;
        }
        fail(`expected ',' or '}', found ${describe(pos)}`);
      }
      entries.set(object, list);
      return object;
    }
    if (c === '[') {
      pos++;
      const array: unknown[] = [];
      skipWhitespace();
      if (text[pos] === ']') {
        pos++;
        return array;
      }
      for (;;) {
        array.push(parseValue(`${path}[${array.length}]`, depth + 1));
        skipWhitespace();
        if (text[pos] === ',') {
          pos++;
          continue;
        }
        if (text[pos] === ']') {
          pos++;
          break;
        }
        fail(`expected ',' or ']', found ${describe(pos)}`);
      }
      return array;
    }
    if (c === '"') return parseString();
    if (text.startsWith('true', pos)) {
      pos += 4;
      return true;
    }
    if (text.startsWith('false', pos)) {
      pos += 5;
      return false;
    }
    if (text.startsWith('null', pos)) {
      pos += 4;
      return null;
    }
    NUMBER.lastIndex = pos;
    const match = NUMBER.exec(text);
    if (match) {
      pos += match[0].length;
      return Number(match[0]);
    }
    return fail(`unexpected ${describe(pos)}`);
  };

  skipWhitespace();
  if (pos >= text.length) fail('the file is empty; expected one JSON object');
  const value = parseValue('$', 0);
  skipWhitespace();
  if (pos < text.length) fail('a second JSON value follows the first; a rule file holds exactly one JSON document');
  return {
    value,
    entriesOf: (object) => entries.get(object) ?? Object.entries(object),
    duplicateKeys,
  };
}
