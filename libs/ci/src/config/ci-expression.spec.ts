import { CiExpressionError, evaluateCiExpression, parseCiExpression } from './ci-expression';
import { parseCiDuration } from './ci-duration';

const vars = { CI_COMMIT_BRANCH: 'main', CI_PIPELINE_SOURCE: 'push', EMPTY: '', PATTERN: '/^rel/', DEPLOY: 'true' };

describe(evaluateCiExpression.name, () => {
  it.each<[string, boolean]>([
    ['$CI_COMMIT_BRANCH == "main"', true],
    ['$CI_COMMIT_BRANCH == \'develop\'', false],
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
