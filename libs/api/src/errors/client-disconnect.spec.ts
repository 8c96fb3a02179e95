import { isClientDisconnect } from './client-disconnect';

const withCode = (message: string, code?: string): Error => Object.assign(new Error(message), code ? { code } : {});

describe(isClientDisconnect.name, () => {
  it('recognizes an aborted upload, a reset connection and a premature close, also wrapped', () => {
    expect(isClientDisconnect(withCode('aborted', 'ECONNRESET'))).toBe(true);
    expect(isClientDisconnect(withCode('aborted'))).toBe(true);
    expect(isClientDisconnect(withCode('Premature close', 'ERR_STREAM_PREMATURE_CLOSE'))).toBe(true);
    expect(isClientDisconnect(new Error('Bad Request', { cause: withCode('socket hang up', 'ECONNRESET') }))).toBe(true);
    expect(isClientDisconnect(new Error('boom'), { raw: { aborted: true } })).toBe(true);
  });

  it('leaves real failures alone', () => {
    expect(isClientDisconnect(new Error('relation "x" does not exist'))).toBe(false);
    expect(isClientDisconnect(withCode('connect ECONNREFUSED 127.0.0.1:5432', 'ECONNREFUSED'))).toBe(false);
    expect(isClientDisconnect('aborted')).toBe(false);
    expect(isClientDisconnect(undefined, { raw: { aborted: false } })).toBe(false);
  });
});
