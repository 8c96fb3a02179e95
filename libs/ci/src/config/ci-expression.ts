import type { VariableMap } from './ci-config.types';

/** Thrown for an expression that does not parse. */
export class CiExpressionError extends Error {}

type Token =
  | { kind: 'var'; name: string }
  | { kind: 'string'; value: string }
  | { kind: 'regex'; source: string; flags: string }
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
      const flags = /^[a-z]*/.exec(input.slice(j + 1))![0];
      tokens.push({ kind: 'regex', source: input.slice(i + 1, j), flags });
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

type Value = string | null | RegExp;

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
        return toRegExp(token.source, token.flags);
    }
  }
  return evaluateNode(node, variables);
}

function toRegExp(source: string, flags: string): RegExp | null {
  try {
    return new RegExp(source, flags.replace(/[^imsu]/g, ''));
  } catch {
    return null;
  }
}

/** A variable holding `/pattern/flags` used on the right of `=~`. */
function patternOf(value: Value | boolean): RegExp | null {
  if (value instanceof RegExp) return value;
  if (typeof value !== 'string') return null;
  const match = /^\/(.*)\/([a-z]*)$/s.exec(value);
  return match ? toRegExp(match[1], match[2]) : null;
}

const truthy = (value: Value | boolean): boolean => (typeof value === 'boolean' ? value : typeof value === 'string' ? value.length > 0 : value !== null);

function evaluateNode(node: Node, variables: VariableMap): boolean {
  switch (node.kind) {
    case 'value':
      return truthy(valueOf(node, variables));
    case 'logic':
      return node.op === '&&' ? evaluateNode(node.left, variables) && evaluateNode(node.right, variables) : evaluateNode(node.left, variables) || evaluateNode(node.right, variables);
    case 'compare': {
      const left = valueOf(node.left, variables);
      const right = valueOf(node.right, variables);
      if (node.op === '==' || node.op === '!=') {
        const equal = left instanceof RegExp || right instanceof RegExp ? false : left === right;
        return node.op === '==' ? equal : !equal;
      }
      const pattern = patternOf(right);
      const matches = pattern !== null && typeof left === 'string' && pattern.test(left);
      return node.op === '=~' ? matches : !matches;
    }
  }
}

/** Evaluates a `rules:if` / `only:variables` expression against the job's variables. */
export function evaluateCiExpression(expression: string, variables: VariableMap): boolean {
  return evaluateNode(parse(tokenize(expression)), variables);
}
