import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import express from 'express';
import Fastify, { type FastifyInstance } from 'fastify';
import { Webhook } from 'standardwebhooks';
import { afterAll, describe, expect, it } from 'vitest';
import { verifyWebhook, WebhookVerificationError } from '../../packages/node/src/webhook.js';
import { newWebhookSecret, signedHeaders } from './signature.js';
import { deliver } from '../core/outbound.js';

/**
 * End to end without the event log: a delivery signed by `signedHeaders`, sent by `deliver`, to
 * real receivers written as docs/webhooks-verify.md shows (Express, Fastify), and to one that uses
 * the third-party `standardwebhooks` package.
 */

const secret = newWebhookSecret();
const previous = newWebhookSecret();
const closers: Array<() => Promise<unknown>> = [];
afterAll(async () => {
  for (const close of closers) await close();
});

let sequence = 0;
function delivery(type: string, data: unknown, secrets: string[] = [secret]) {
  const body = JSON.stringify({ type, timestamp: new Date().toISOString(), data });
  const headers = signedHeaders({ secrets, id: `msg_receivers_${++sequence}`, timestamp: new Date(), body });
  return { body, headers };
}

async function expressReceiver(log: string[]): Promise<string> {
  // As in docs/webhooks-verify.md.
  const app = express();
  app.post('/webhooks/gatehouse', express.raw({ type: 'application/json' }), (req, res) => {
    try {
      const event = verifyWebhook(secret, req.headers, req.body);
      if (event.type === 'user.created') log.push(`signed up: ${JSON.stringify(event.data)}`);
      res.sendStatus(204);
    } catch (error) {
      if (!(error instanceof WebhookVerificationError)) throw error;
      log.push(error.reason);
      res.status(400).send(error.reason);
    }
  });
  const server: Server = await new Promise((done) => {
    const listening = app.listen(0, '127.0.0.1', () => done(listening));
  });
  closers.push(() => new Promise((done) => server.close(done)));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks/gatehouse`;
}

async function fastifyReceiver(log: string[]): Promise<string> {
  // As in docs/webhooks-verify.md.
  const app: FastifyInstance = Fastify();
  app.register(async (hooks) => {
    hooks.addContentTypeParser('application/json', { parseAs: 'buffer' }, (_request, body, done) => done(null, body));
    hooks.post('/webhooks/gatehouse', async (request, reply) => {
      try {
        const event = verifyWebhook(secret, request.headers, request.body as Buffer);
        log.push(`${request.headers['webhook-id']} ${event.type}`);
        return reply.code(204).send();
      } catch (error) {
        if (!(error instanceof WebhookVerificationError)) throw error;
        log.push(error.reason);
        return reply.code(400).send(error.reason);
      }
    });
  });
  app.post('/elsewhere', async (request) => ({ parsed: typeof request.body })); // JSON parsing unchanged outside the plugin
  const base = await app.listen({ port: 0, host: '127.0.0.1' });
  closers.push(() => app.close());
  return `${base}/webhooks/gatehouse`;
}

describe('signed deliveries reach real receivers', () => {
  it('Express with express.raw and verifyWebhook', async () => {
    const log: string[] = [];
    const url = await expressReceiver(log);
    const good = delivery('user.created', { id: 'usr_1' });
    expect(await deliver({ url, ...good, allowPrivate: true })).toMatchObject({ ok: true, status: 204 });
    const rotated = delivery('user.created', { id: 'usr_2' }, [previous, secret]);
    expect(await deliver({ url, ...rotated, allowPrivate: true })).toMatchObject({ ok: true, status: 204 });
    const forged = delivery('user.created', { id: 'usr_3' }, [previous]);
    expect(await deliver({ url, ...forged, allowPrivate: true })).toMatchObject({ ok: false, status: 400, responseBody: 'no_matching_signature' });
    expect(log).toEqual(['signed up: {"id":"usr_1"}', 'signed up: {"id":"usr_2"}', 'no_matching_signature']);
  });

  it('Fastify with a buffer content-type parser and verifyWebhook', async () => {
    const log: string[] = [];
    const url = await fastifyReceiver(log);
    const good = delivery('session.revoked', { id: 'sess_1' });
    expect(await deliver({ url, ...good, allowPrivate: true })).toMatchObject({ ok: true, status: 204 });
    const stale = { ...good, headers: signedHeaders({ secrets: secret, id: 'msg_stale', timestamp: Math.floor(Date.now() / 1000) - 600, body: good.body }) };
    expect(await deliver({ url, ...stale, allowPrivate: true })).toMatchObject({ ok: false, status: 400, responseBody: 'timestamp_too_old' });
    expect(log).toEqual([`${good.headers['webhook-id']} session.revoked`, 'timestamp_too_old']);
    const elsewhere = await fetch(url.replace('/webhooks/gatehouse', '/elsewhere'), { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    expect(await elsewhere.json()).toEqual({ parsed: 'object' });
  });

  it('a receiver using the standardwebhooks package', async () => {
    const log: string[] = [];
    const app = express();
    app.post('/hook', express.text({ type: 'application/json' }), (req, res) => {
      try {
        const event = new Webhook(secret).verify(req.body, req.headers as Record<string, string>) as { type: string };
        log.push(event.type);
        res.sendStatus(200);
      } catch (error) {
        log.push((error as Error).message);
        res.sendStatus(401);
      }
    });
    const server: Server = await new Promise((done) => {
      const listening = app.listen(0, '127.0.0.1', () => done(listening));
    });
    closers.push(() => new Promise((done) => server.close(done)));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
    expect(await deliver({ url, ...delivery('password.changed', {}, [previous, secret]), allowPrivate: true })).toMatchObject({ ok: true, status: 200 });
    const tampered = delivery('password.changed', {});
    expect(await deliver({ url, headers: tampered.headers, body: tampered.body.replace('password', 'passwort'), allowPrivate: true })).toMatchObject({ ok: false, status: 401 });
    expect(log).toEqual(['password.changed', 'No matching signature found']);
  });
});
