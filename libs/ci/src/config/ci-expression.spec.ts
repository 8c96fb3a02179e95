import { CiExpressionError, evaluateCiExpression, parseCiExpression } from './ci-expression';
import { parseCiDuration } from './ci-duration';

const vars = { CI_COMMIT_BRANCH: 'main', CI_PIPELINE_SOURCE: 'push', EMPTY: '', PATTERN: '/^rel/', DEPLOY: 'true' };

describe(evaluateCiExpression.name, () => {
  it.each<[string, boolean]>([
    ['$CI_COMMIT_BRANCH == "main"', true],
    ["$CI_COMMIT_BRANCH == 'develop'", false],
    ['$CI_COMMIT_BRANCH != "main"', false],
    ['${CI_COMMIT_BRANCH} == "main"', true],
    ['$CI_PIPELINE_SOURCE == "push" && $CI_COMMIT_BRANCH == "main"', true],
    ['$CI_PIPELINE_SOURCE == "web" || $CI_COMMIT_BRANCH == "main"', true],
    ['$CI_PIPELINE_SOURCE == "web" || $CI_COMMIT_BRANCH == "x" && $DEPLOY', false],
    ['($CI_PIPELINE_SOURCE == "web" || $CI_COMMIT_BRANCH == "main") && $DEPLOY == "true"', true],
    ['$CI_COMMIT_BRANCH =~ /^ma/', true],
    ['$CI_COMMIT_BRANCH =~ /^MA/i', true],
    ['$CI_COMMIT_BRANCH !~ /^ma/', false],
    ['"release-1" =~ $PATTERN', true],
    ['$DEPLOY', true],
    ['$EMPTY', false],
    ['$UNDEFINED', false],
    ['$UNDEFINED == null', true],
    ['$EMPTY == null', false],
    ['$EMPTY == ""', true],
    ['$CI_COMMIT_TAG', false],
    ['$UNDEFINED =~ /x/', false],
  ])('%s is %s', (expression, expected) => {
    expect(evaluateCiExpression(expression, vars)).toBe(expected);
  });

  it.each(['$A ==', '== "a"', '($A == "b"', '$A == "b" )', 'main', '"unterminated', '$A = "b"', '$A =~ /open', ''])('refuses %j', (expression) => {
    expect(() => parseCiExpression(expression)).toThrow(CiExpressionError);
  });

  it.each([
    ['a backreference', '$A =~ /(a)\\1/'],
    ['a lookahead', '$A =~ /a(?=b)/'],
    ['a negative lookbehind', '$A =~ /(?<!a)b/'],
    ['an unbalanced group', '$A =~ /a(/'],
  ])('refuses a pattern RE2 refuses (%s) as an invalid expression, as GitLab', (_what, expression) => {
    expect(() => parseCiExpression(expression)).toThrow(new CiExpressionError('Invalid regular expression!'));
  });

  it('refuses a flag GitLab does not know (only i, m, s and U follow a pattern)', () => {
    expect(() => parseCiExpression('$A =~ /a/g')).toThrow(CiExpressionError);
  });

  it.each<[string, string]>([
    ['^(a+)+$', 'a'.repeat(100_000) + '!'],
    ['(x+x+)+y', 'x'.repeat(100_000)],
    ['(.*a){20}', 'a'.repeat(20_000) + 'b'.repeat(20_000)],
    ['^(\\w+\\s?)*$', 'word '.repeat(20_000) + '!'],
  ])('runs the catastrophic pattern /%s/ in linear time: it completes on a long input', (pattern, text) => {
    expect(evaluateCiExpression(`$MESSAGE =~ /${pattern}/`, { MESSAGE: text })).toBe(pattern === '(.*a){20}');
    expect(evaluateCiExpression('$MESSAGE =~ $PATTERN', { MESSAGE: text, PATTERN: `/${pattern}/` })).toBe(pattern === '(.*a){20}');
  });

  it.each<[string, Record<string, string>, boolean]>([
    // GitLab's flags: i, m (line anchors), s (dot matches a newline), U (ungreedy).
    ['$M =~ /^b$/', { M: 'a\nb' }, false],
    ['$M =~ /^b$/m', { M: 'a\nb' }, true],
    ['$M =~ /a.b/', { M: 'a\nb' }, false],
    ['$M =~ /a.b/s', { M: 'a\nb' }, true],
    ['$M =~ /A.B/is', { M: 'a\nb' }, true],
    ['$M =~ /a\\/b/', { M: 'a/b' }, true],
    // An undefined variable is the empty text; an empty pattern matches it.
    ['$UNDEFINED =~ /^$/', {}, true],
    ['$UNDEFINED !~ /x/', {}, true],
    ['$M =~ $UNDEFINED', { M: 'a' }, false],
    ['$M !~ $UNDEFINED', { M: 'a' }, true],
    // A variable that is no valid pattern is searched for the left text (GitLab's String#scan).
    ['$M =~ $P', { M: '23', P: '1234' }, true],
    ['$M =~ $P', { M: '1234', P: '23' }, false],
    ['$M =~ $P', { M: 'b', P: '/(a)\\1/' }, false],
    ['$M =~ $P', { M: '(a)', P: '/(a)\\1/' }, true],
    ['$M =~ $P', { M: 'ABC', P: '/abc/i' }, true],
    ['$M =~ $P', { M: 'xx', P: '/x/g' }, false],
    ['$M =~ $P', { M: 'x/g', P: '/x/g' }, true],
  ])('%s with %j is %s', (expression, variables, expected) => {
    expect(evaluateCiExpression(expression, variables)).toBe(expected);
  });
});

describe(parseCiDuration.name, () => {
  it.each<[string | number, number | null]>([
    ['3600', 3600],
    [3600, 3600],
    ['1h', 3600],
    ['1h 30m', 5400],
    ['2 hours', 7200],
    ['1 week and 2 days', 9 * 86400],
    ['30 mins', 1800],
    ['1 day', 86400],
    ['10 minutes', 600],
    ['soon', null],
    ['3 parsecs', null],
    ['', null],
  ])('%j is %j seconds', (input, expected) => {
    expect(parseCiDuration(input)).toBe(expected);
  });
});
