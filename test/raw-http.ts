/**
 * Raw bytes over a real socket, for requests that Node's HTTP parser refuses
 * before the app sees them (an unknown method, headers too large, a request
 * that never finishes): the answer as the client reads it until the server
 * closes the connection.
 */
import { connect } from 'node:net';

export interface RawAnswer {
  status: number;
  /** Lower-cased names. */
  headers: Record<string, string>;
  // biome-ignore lint/suspicious/noExplicitAny: the problem body, as parsed
  body: any;
  text: string;
}

export function sendRaw(port: number, request: string): Promise<RawAnswer> {
  return new Promise((resolve) => {
    let answer = '';
    const socket = connect(port, '127.0.0.1', () => socket.write(request));
    socket.setEncoding('utf8').on('data', (chunk: string) => {
      answer += chunk;
    });
    socket.on('error', () => {});
    socket.on('close', () => {
      const [head, text = ''] = answer.split('\r\n\r\n');
      const [statusLine, ...lines] = head.split('\r\n');
      const headers = Object.fromEntries(
        lines.map((line) => [
          line.slice(0, line.indexOf(':')).toLowerCase(),
          line.slice(line.indexOf(':') + 2),
        ]),
      );
      let body: unknown;
      try {
        body = JSON.parse(text);
      } catch {
        body = undefined;
      }
      resolve({ status: Number(statusLine.split(' ')[1]), headers, body, text });
    });
  });
}
