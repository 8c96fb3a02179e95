import type { VariableMap } from './ci-config.types';
import { UntrustedRegexp, UntrustedRegexpError } from './untrusted-regexp';

/** Thrown for an expression that does not parse. */
export class CiExpressionError extends Error {}

type Token =
  | { kind: 'var'; name: string }
  | { kind: 'string'; value: string }
  | { kind: 'regex'; regexp: UntrustedRegexp }
  | { kind: 'null' }
  | { kind: 'op'; op: '==' | '!=' | '=~' | '!~' | '&&' | '||' }
  | { kind: 'paren'; open: boolean };

function tokenize(input: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < input.length) {
    const c = input[i];
    if (/\s/.test(c)) {
      i += 1;
      continue;
    }
    if (c === '(' || c === ')') {
      tokens.push({ kind: 'paren', open: c === '(' });
      i += 1;
      continue;
    }
    const two = input.slice(i, i + 2);
    if (two === '==' || two === '!=' || two === '=~' || two === '!~' || two === '&&' || two === '||') {
      tokens.push({ kind: 'op', op: two });
      i += 2;
      continue;
    }
    if (c === '$') {
      const match = /^\$(?:\{([A-Za-z_][A-Za-z0-9_]*)\}|([A-Za-z_][A-Za-z0-9_]*))/.exec(input.slice(i));
      if (!match) throw new CiExpressionError(`invalid variable at ${i}`);
      tokens.push({ kind: 'var', name: match[1] ?? match[2] });
      i += match[0].length;
      continue;
    }
    if (c === '"' || c === "'") {
      const end = input.indexOf(c, i + 1);
      if (end < 0) throw new CiExpressionError('unterminated string');
      tokens.push({ kind: 'string', value: input.slice(i + 1, end) });
      i = end + 1;
      continue;
    }
    if (c === '/') {
      let j = i + 1;
      while (j < input.length && input[j] !== '/') j += input[j] === '\\' ? 2 : 1;
      if (j >= input.length) throw new CiExpressionError('unterminated regular expression');
      // GitLab's flags (`Lexeme::Pattern`): i, s, m, U; any other letter after the pattern is a syntax error.
      const flags = /^[ismU]*/.exec(input.slice(j + 1))![0];
      // `\/` is a slash of the pattern, as GitLab reads it; RE2 compiles it here, so a pattern it
      // refuses (a backreference, a lookaround) makes the expression invalid, as GitLab's lexer does.
      try {
        tokens.push({ kind: 'regex', regexp: UntrustedRegexp.compile(input.slice(i + 1, j).replace(/\\\//g, '/'), flags) });
      } catch (error) {
        if (error instanceof UntrustedRegexpError) throw new CiExpressionError('Invalid regular expression!');
        throw error;
      }
      i = j + 1 + flags.length;
      continue;
    }
    if (input.startsWith('null', i) && !/[A-Za-z0-9_]/.test(input[i + 4] ?? '')) {
      tokens.push({ kind: 'null' });
      i += 4;
      continue;
    }
    throw new CiExpressionError(`unexpected character ${JSON.stringify(c)} at ${i}`);
  }
  return tokens;
}

type Node =
  | { kind: 'value'; token: Exclude<Token, { kind: 'op' } | { kind: 'paren' }> }
  | { kind: 'compare'; op: '==' | '!=' | '=~' | '!~'; left: Node; right: Node }
  | { kind: 'logic'; op: '&&' | '||'; left: Node; right: Node };

/** Recursive descent: `||` binds loosest, then `&&`, then comparisons. */
function parse(tokens: Token[]): Node {
  let pos = 0;
  const peek = (): Token | undefined => tokens[pos];
  const primary = (): Node => {
    const token = tokens[pos++];
    if (!token) throw new CiExpressionError('unexpected end of expression');
    if (token.kind === 'paren' && token.open) {
      const inner = or();
      const close = tokens[pos++];
      if (!close || close.kind !== 'paren' || close.open) throw new CiExpressionError('missing closing parenthesis');
      return inner;
    }
    if (token.kind === 'paren' || token.kind === 'op') throw new CiExpressionError('unexpected operator');
    return { kind: 'value', token };
  };
  const comparison = (): Node => {
    const left = primary();
    const next = peek();
    if (next?.kind === 'op' && (next.op === '==' || next.op === '!=' || next.op === '=~' || next.op === '!~')) {
      pos += 1;
      return { kind: 'compare', op: next.op, left, right: primary() };
    }
    return left;
  };
  const and = (): Node => {
    let left = comparison();
    while (peek()?.kind === 'op' && (peek() as { op: string }).op === '&&') {
      pos += 1;
      left = { kind: 'logic', op: '&&', left, right: comparison() };
    }
    return left;
  };
  const or = (): Node => {
    let left = and();
    while (peek()?.kind === 'op' && (peek() as { op: string }).op === '||') {
      pos += 1;
      left = { kind: 'logic', op: '||', left, right: and() };
    }
    return left;
  };
  const root = or();
  if (pos !== tokens.length) throw new CiExpressionError('unexpected token after expression');
  return root;
}

/** Parses `expression`; throws CiExpressionError when it is not a valid CI/CD expression. */
export function parseCiExpression(expression: string): void {
  const tokens = tokenize(expression);
  if (tokens.length === 0) throw new CiExpressionError('empty expression');
  parse(tokens);
}

type Value = string | null | UntrustedRegexp;

function valueOf(node: Node, variables: VariableMap): Value | boolean {
  if (node.kind === 'value') {
    const token = node.token;
    switch (token.kind) {
      case 'var':
        return Object.prototype.hasOwnProperty.call(variables, token.name) ? variables[token.name] : null;
      case 'string':
        return token.value;
      case 'null':
        return null;
      case 'regex':
        return token.regexp;
    }
  }
  return evaluateNode(node, variables);
}

/**
 * `left =~ right` as GitLab's `Lexeme::Matches`: the left is text (an undefined variable is the
 * empty text); the right is a pattern, or a string holding `/pattern/flags` (a variable), compiled
 * by RE2. A string that is not a valid pattern (not of that form, or refused by RE2) is searched
 * for the left text instead (Ruby's `String#scan`: whether the left occurs in it). No right: false.
 */
function matches(left: Value | boolean, right: Value | boolean): boolean {
  if (right === null || typeof right === 'boolean') return false;
  if (left !== null && typeof left !== 'string') return false;
  const text = left ?? '';
  if (right instanceof UntrustedRegexp) return right.test(text);
  const pattern = UntrustedRegexp.fabricateOrNull(right.replace(/\\\//g, '/'));
  return pattern ? pattern.test(text) : right.includes(text);
}

const truthy = (value: Value | boolean): boolean => (typeof value === 'boolean' ? value : typeof value === 'string' ? value.length > 0 : value !== null);

function evaluateNode(node: Node, variables: VariableMap): boolean {
  switch (node.kind) {
    case 'value':
      return truthy(valueOf(node, variables));
    case 'logic':
      return node.op === '&&'
        ? evaluateNode(node.left, variables) && evaluateNode(node.right, variables)
        : evaluateNode(node.left, variables) || evaluateNode(node.right, variables);
    case 'compare': {
      const left = valueOf(node.left, variables);
      const right = valueOf(node.right, variables);
      if (node.op === '==' || node.op === '!=') {
        const equal = left instanceof UntrustedRegexp || right instanceof UntrustedRegexp ? false : left === right;
        return node.op === '==' ? equal : !equal;
      }
      const found = matches(left, right);
      return node.op === '=~' ? found : !found;
    }
  }
}

/** Evaluates a `rules:if` / `only:variables` expression against the job's variables. */
export function evaluateCiExpression(expression: string, variables: VariableMap): boolean {
  return evaluateNode(parse(tokenize(expression)), variables);
}
