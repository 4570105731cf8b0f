import { lookup } from 'node:dns/promises';
import { createServer } from 'node:net';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { DataDirLockedError } from '../db/data-dir-lock.js';
import { describeStartupError } from './startup-errors.js';

/** Real failures (no hand-made error objects) turned into the one line an operator reads. */
async function caught(fn: () => Promise<unknown>): Promise<unknown> {
  try {
    await fn();
  } catch (error) {
    return error;
  }
  throw new Error('expected a failure');
}

const config = { host: '127.0.0.1', port: 0, databaseUrl: 'postgres://gatehouse@127.0.0.1:1/gatehouse' };

describe('describeStartupError', () => {
  it('names PORT for a port in use', async () => {
    const first = createServer();
    await new Promise<void>((resolve) => first.listen(0, '127.0.0.1', resolve));
    const port = (first.address() as { port: number }).port;
    const second = createServer();
    const error = await caught(() => new Promise((resolve, reject) => second.once('error', reject).listen(port, '127.0.0.1', () => resolve(undefined))));
    first.close();
    expect(describeStartupError(error, { ...config, port })).toBe(`PORT: 127.0.0.1:${port} is already in use`);
  });

  it('names DATABASE_URL when the database refuses or its host is unknown', async () => {
    const refused = await caught(async () => {
      const client = new pg.Client({ connectionString: config.databaseUrl });
      await client.connect();
    });
    expect(describeStartupError(refused, config)).toMatch(/^DATABASE_URL: cannot connect to the database \(ECONNREFUSED: /);
    const unknownHost = await caught(() => lookup('gatehouse-db.invalid'));
    expect(describeStartupError(unknownHost, { ...config, databaseUrl: 'postgres://gatehouse-db.invalid/x' })).toMatch(/^DATABASE_URL: cannot connect/);
  });

  it('names HOST when the listen address cannot be resolved', async () => {
    const unknownHost = await caught(() => lookup('gatehouse-host.invalid'));
    expect(describeStartupError(unknownHost, { ...config, host: 'gatehouse-host.invalid' })).toBe('HOST: cannot resolve "gatehouse-host.invalid"');
  });

  it('keeps the message of errors that already name their variable', () => {
    const locked = new DataDirLockedError('/var/lib/gatehouse', 4242);
    expect(describeStartupError(locked, config)).toBe(
      'GATEHOUSE_DATA_DIR: the embedded database in /var/lib/gatehouse is in use by process 4242; stop it first (or use DATABASE_URL)',
    );
  });
});
