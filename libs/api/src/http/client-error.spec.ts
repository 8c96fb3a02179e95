import { clientErrorAnswer } from './client-error';

const error = (code: string): NodeJS.ErrnoException => Object.assign(new Error(code), { code });

describe('clientErrorAnswer', () => {
  it.each([
    ['ERR_HTTP_REQUEST_TIMEOUT', 408, '408 Request Timeout'],
    ['HPE_HEADER_OVERFLOW', 431, '431 Request Header Fields Too Large'],
    ['HPE_INVALID_CHUNK_SIZE', 400, '400 Bad request - malformed HTTP request'],
  ])('answers %s with %i in the spec error shape and closes', (code, status, message) => {
    const answer = clientErrorAnswer(error(code));
    const [head, body] = answer.split('\r\n\r\n');
    expect(head).toMatch(new RegExp(`^HTTP/1\\.1 ${status} `));
    expect(head).toContain('\r\nContent-Type: application/json\r\n');
    expect(head).toContain(`\r\nContent-Length: ${Buffer.byteLength(body)}\r\n`);
    expect(head).toContain('\r\nConnection: close');
    expect(JSON.parse(body)).toEqual({ message });
  });
});
