import { SMTPServer } from 'smtp-server';
import type { AddressInfo } from 'node:net';

export interface ReceivedMail {
  from: string;
  to: string[];
  raw: string;
  /** whether the message came over TLS (STARTTLS) */
  secure: boolean;
}

export interface SmtpServerOptions {
  /** offer STARTTLS (smtp-server's built-in self-signed certificate); the URL then asks for it */
  starttls?: boolean;
  /** refuse the first N messages with a transient `451` (the courier retries) */
  failFirst?: number;
}

/** A real SMTP server on a random loopback port that keeps what it receives (tests only). */
export async function startSmtpServer(options: SmtpServerOptions = {}): Promise<{ url: string; received: ReceivedMail[]; refused: () => number; close(): Promise<void> }> {
  const received: ReceivedMail[] = [];
  let refused = 0;
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: options.starttls ? [] : ['STARTTLS'],
    logger: false,
    closeTimeout: 200,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        if (refused < (options.failFirst ?? 0)) {
          refused++;
          const error = Object.assign(new Error('Try again later'), { responseCode: 451 });
          callback(error);
          return;
        }
        received.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address),
          raw: Buffer.concat(chunks).toString('utf8'),
          secure: session.secure === true,
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  const url = options.starttls ? `smtp://127.0.0.1:${port}?requireTLS=true&tls.rejectUnauthorized=false` : `smtp://127.0.0.1:${port}`;
  return {
    url,
    received,
    refused: () => refused,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The text part of a received message, decoded (quoted-printable soft breaks and escapes). */
export function textPart(raw: string): string {
  const parts = raw.split(/\r?\n--[^\r\n]+\r?\n/);
  const text = parts.find((part) => /content-type:\s*text\/plain/i.test(part)) ?? raw;
  const [headers, ...body] = text.split(/\r?\n\r?\n/);
  let content = body.join('\n\n');
  if (/content-transfer-encoding:\s*quoted-printable/i.test(headers)) {
    content = Buffer.from(
      content.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/gi, (_, hex: string) => String.fromCharCode(parseInt(hex, 16))),
      'latin1',
    ).toString('utf8');
  } else if (/content-transfer-encoding:\s*base64/i.test(headers)) {
    content = Buffer.from(content.replace(/\s+/g, ''), 'base64').toString('utf8');
  }
  return content.replace(/\r\n/g, '\n');
}
