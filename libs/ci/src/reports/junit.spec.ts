import { figuresOf, JunitError, parseJunit } from './junit';

const REPORT = `<?xml version="1.0" encoding="UTF-8"?>
<testsuites>
  <testsuite name="math" tests="4">
    <testcase classname="Math" name="adds" time="0.25"/>
    <testcase classname="Math" name="divides" time="1.5"><failure message="expected 2">stack at line 3</failure></testcase>
    <testcase classname="Math" name="roots" time="0"><skipped/></testcase>
    <testcase classname="Math" name="logs"><error>boom &amp; bust</error></testcase>
  </testsuite>
  <testsuite name="nested"><testsuite name="inner"><testcase classname="X" name="deep" time="2" file="x.ts"/></testsuite></testsuite>
</testsuites>`;

describe('parseJunit', () => {
  it('reads every test case with its status, time and output', () => {
    const cases = parseJunit(REPORT);
    expect(cases.map((c) => [c.name, c.status])).toEqual([
      ['adds', 'success'],
      ['divides', 'failed'],
      ['roots', 'skipped'],
      ['logs', 'error'],
      ['deep', 'success'],
    ]);
    expect(cases[1]).toMatchObject({ classname: 'Math', execution_time: 1.5, system_output: 'expected 2', stack_trace: 'stack at line 3' });
    expect(cases[3]).toMatchObject({ system_output: 'boom & bust', execution_time: 0 });
    expect(cases[4].file).toBe('x.ts');
    expect(figuresOf(cases)).toEqual({ total_time: 3.75, total_count: 5, success_count: 2, failed_count: 1, skipped_count: 1, error_count: 1 });
  });

  it('reads a single <testsuite> root', () => {
    expect(parseJunit('<testsuite><testcase name="a" classname="b"/></testsuite>')).toHaveLength(1);
  });

  it('refuses documents with a DTD (entity expansion) and malformed XML with a message', () => {
    const bomb = '<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;">]><testsuite><testcase name="&lol2;"/></testsuite>';
    expect(() => parseJunit(bomb)).toThrow(new JunitError('JUnit XML parsing failed: document type declarations are not allowed'));
    expect(() => parseJunit('<testsuite><testcase name="a"></testsuite>')).toThrow(/^JUnit XML parsing failed: /);
    expect(() => parseJunit('not xml at all <')).toThrow(JunitError);
  });
});
