import type { Config } from '../config.js';

/** Refused, unknown host, timed out, unreachable, no such database, authentication or role failures. */
const DATABASE_CODES = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'ECONNRESET', '3D000', '28P01', '28000']);

/** Turns a start-up failure into one line a person can act on. */
export function describeStartupError(error: unknown, config?: Pick<Config, 'port' | 'host' | 'databaseUrl'>): string {
  const err = error as { code?: string; message?: string; variable?: string; syscall?: string; hostname?: string };
  // EAI_AGAIN: the name could not be resolved because no DNS server answered.
  if ((err.code === 'ENOTFOUND' || err.code === 'EAI_AGAIN') && err.hostname === config?.host && err.hostname !== databaseHost(config?.databaseUrl)) {
    return `HOST: cannot resolve "${config?.host}"`;
  }
  if (err.code === 'EADDRINUSE') return `PORT: ${config?.host}:${config?.port} is already in use`;
  if (err.code === 'EACCES') return `PORT: not allowed to listen on ${config?.host}:${config?.port}`;
  if (err.code === 'EADDRNOTAVAIL') return `HOST: address ${config?.host} is not available on this machine`;
  if (DATABASE_CODES.has(err.code ?? '') || /timeout exceeded when trying to connect|Connection terminated/i.test(err.message ?? '')) {
    return `DATABASE_URL: cannot connect to the database (${err.code}: ${err.message})`;
  }
  return err.message ?? String(error);
}

function databaseHost(url: string | undefined): string | undefined {
  try {
    return url ? new URL(url).hostname : undefined;
  } catch {
    return undefined;
  }
}
